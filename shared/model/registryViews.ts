/**
 * What the UI sees of MCP registries: search pages, one entry's ways of
 * running it with the form fields they need, and where stdio backends' PATH
 * came from. Plain data, no Node or DOM.
 */

/** One form field of an entry (an argument, a {variable}, an env var or a header). */
export interface RegistryFieldView {
  key: string;
  kind: 'env' | 'header' | 'argument' | 'variable';
  name: string;
  description?: string;
  required: boolean;
  secret: boolean;
  default?: string;
  placeholder?: string;
  choices?: string[];
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  repeated: boolean;
}

/** One way of running an entry: a package or a remote. */
export interface RegistryOptionView {
  choice: { package: number } | { remote: number };
  kind: string;
  label: string;
  runtime?: string;
  fields: RegistryFieldView[];
  unsupported?: string;
}

/** One entry of a search page. */
export interface RegistryEntryView {
  registry: string;
  name: string;
  version: string;
  valid: boolean;
  /** Why it is invalid (never installable then). */
  reason?: string;
  title?: string;
  description?: string;
  repositoryUrl?: string;
  websiteUrl?: string;
  /** Package kinds and `remote`. */
  kinds: string[];
  status?: string;
  /** Whether a backend with this registry name exists already (its ID). */
  addedAs?: string;
  options: RegistryOptionView[];
}

/** One page of a search. */
export interface RegistryPageView {
  entries: RegistryEntryView[];
  nextCursor?: string;
  offline: boolean;
  /** When the shown answer was fetched (ms since the epoch). */
  fetchedAt: number;
  failures: { registry: string; message: string }[];
}

/** Where stdio backends' PATH came from, for Settings. */
export interface PathView {
  /** `resolving`: the login shell has not answered yet (servers wait for it before they start). */
  source: 'login-shell' | 'fallback' | 'inherited' | 'given' | 'resolving';
  /** The PATH in force, in order (the user's entries first). */
  path: string[];
  /** The directories the user added (`proxy.extraPath`). */
  extra: string[];
  /** Why the login shell was not used. */
  reason?: string;
}

/** A backend added from a registry whose registry has a newer version. */
export interface RegistryUpdateView {
  /** The backend ID. */
  id: string;
  /** The registry name of the server. */
  name: string;
  /** The version the backend was added at. */
  current: string;
  /** The registry's latest version. */
  latest: string;
}

/** One change an update makes (env and headers by name only: their values may be secret). */
export interface RegistryChangeView {
  /** `version`, `command`, `args`, `url`, `type`, `env` or `headers`. */
  field: string;
  from: string;
  to: string;
  added?: string[];
  removed?: string[];
}

/** What updating a backend to its registry's latest version changes (or changed, once applied). */
export interface RegistryUpdatePlanView {
  id: string;
  from: string;
  to: string;
  changes: RegistryChangeView[];
  applied: boolean;
}
