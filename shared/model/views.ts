/**
 * What the UI sees of the core: plain, serializable views. None of them ever
 * holds a secret value (keychain entries, OAuth tokens, header values,
 * secret-looking env values); secrets appear as references or names only.
 */
import type { ErrorData } from '../errors.js';
import type { Exposure, ExposureInForce } from './exposure.js';
import type { BackendHealth } from './health.js';
import type { AddPreviewView } from './sandboxViews.js';

export * from './logViews.js';
export * from './tryViews.js';

/** An env value or header as the UI may show it: plain text, or a reference to a keychain secret. */
export type ConfigValueView = { kind: 'plain'; value: string } | { kind: 'secret'; name: string } | { kind: 'hidden' };

/** One backend: its health plus the parts of its config the UI shows and edits. */
export interface BackendView {
  health: BackendHealth;
  enabled: boolean;
  /** stdio: the command line; http/sse: the URL. */
  target: string;
  /** The backend's config entry for the edit form; secret values replaced by `{"secret": name}` or left out. */
  entry: Record<string, unknown>;
  /** Set for remote backends that use OAuth. */
  oauth?: { configured: boolean };
  /**
   * Its env (stdio) or header (remote) values as the UI may show them. A
   * `hidden` value is left out of `entry`; `backends.update` keeps it unless
   * the new entry sets that name (a string) or removes it (`null`).
   */
  values?: Record<string, ConfigValueView>;
}

/** The kinds of catalog items. */
export type CatalogKind = 'tool' | 'prompt' | 'resource' | 'resourceTemplate' | 'skill';

/** Behaviour hints of a tool (MCP `ToolAnnotations`). */
export interface ToolAnnotationsView {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One item of the merged catalog. */
export interface CatalogEntry {
  kind: CatalogKind;
  backendId: string;
  /** The name (or advertised URI / URI template) clients see. */
  exposed: string;
  /** The backend's own name (or URI / template). */
  original: string;
  /** A tool that is the backend's prompt or resource offered as a tool (`original` is its name or URI). */
  via?: 'prompt' | 'resource';
  /** A tool its server's override changes (name, title, description, annotations or arguments). */
  overridden?: true;
  title?: string;
  description?: string;
  /** Tools: the input JSON Schema. */
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotationsView;
  /** Prompts: their arguments. */
  arguments?: { name: string; description?: string; required?: boolean }[];
  mimeType?: string;
  /** Skills (SEP-2640): each file under its advertised URI, with its size in bytes (absent: "dynamic"). */
  files?: { uri: string; size: number }[];
}

/** The rules: `ask` (tools only) prompts the user per call; other items are allow/deny. */
export const RULES = ['allow', 'deny', 'ask'] as const;
/** A rule for a tool (`ask` prompts the user per call); other items are allow/deny. */
export type RuleView = (typeof RULES)[number];

/** The catalog kinds as the policy keys them. */
export const POLICY_KINDS = ['tools', 'prompts', 'resources', 'resourceTemplates', 'skills'] as const;
/** The catalog kinds as the policy keys them. */
export type PolicyKind = (typeof POLICY_KINDS)[number];

/** One item's effective rule for one profile, and where it came from. */
export interface PolicyItemView {
  backendId: string;
  kind: PolicyKind;
  original: string;
  exposed: string;
  rule: RuleView;
  /** `item`: set on this item for this profile; `backend`: the backend's rule; `default`: the global default. */
  source: 'client' | 'item' | 'backend' | 'default';
  /** Withheld for everyone because its definition changed and awaits approval. */
  withheld: boolean;
  /** The rule "inherit" gives: without a rule of its own at this level (for a profile: what everyone gets). */
  inherited: RuleView;
  /** Whether it has a rule of its own at this level (for a profile: its override; for everyone: the item's rule). */
  own: boolean;
  /** Tools marked read-only by their annotations (`readOnlyHint`). */
  readOnly?: boolean;
}

/**
 * What one profile gets of one item: `allowed` / `ask` (listed, or found by
 * search); `denied` by a rule; `withheld` (changed definition awaiting
 * approval); `server-off` (the server's "Clients may use it" is off);
 * `server-hidden` (the profile does not see that server); `over-cap` (past the
 * profile's `maxTools`).
 */
export type ItemAccessState = 'allowed' | 'ask' | 'denied' | 'withheld' | 'server-off' | 'server-hidden' | 'over-cap';

/** One catalog item as one profile gets it. */
export interface ItemAccessView extends PolicyItemView {
  state: ItemAccessState;
  /** The name this profile sees, where its name budget shortened it. */
  clientName?: string;
  /** Whether it is in the profile's tools/list (search mode lists only the meta-tools and pinned tools). */
  listed: boolean;
  /** Tools: tokens (o200k) of its definition as the profile receives it. */
  tokens?: number;
}

/** The catalog as one profile (`*`: the main token, every client's rules) gets it, with the cost of its tools/list. */
export interface CatalogAccessView {
  profile: string;
  /** The profile's name (`*`: "the main token"). */
  name: string;
  tools: ProfileToolsView & {
    /** Tools and tokens of its tools/list with every tool listed (`all`). */
    allListed: number;
    allTokens: number;
    /** Tokens of its tools/list in search mode (the meta-tools and pinned tools). */
    searchTokens: number;
  };
  items: ItemAccessView[];
}

/** One `search_tools` result, as the profile's model gets it. */
export interface FoundToolView {
  /** The name `call_tool` takes (the profile's shortened name where it has a name budget). */
  name: string;
  server: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: ToolAnnotationsView;
}

/** Everything the Authorization screen shows for one profile (`*` is everyone). */
export interface PolicyView {
  profile: string;
  backends: {
    id: string;
    enabled: boolean;
    defaultRule: 'allow' | 'deny';
    pinning: boolean;
    capture: boolean;
    /** Whether this profile sees the server at all (always true for everyone, `*`). */
    visible: boolean;
  }[];
  items: PolicyItemView[];
  /** The profile's (for `*`: the main token's) tool exposure and the cost of its tools/list. */
  tools?: ProfileToolsView;
}

/** A client profile; its token is never shown again after create/rotate. */
export interface ProfileView {
  id: string;
  name: string;
  /** Backends this profile sees; absent means all. */
  backends?: string[];
  maxTools?: number;
  hasToken: boolean;
  /** How the profile gets its tools (search mode), and what its tools/list costs. */
  tools?: ProfileToolsView;
}

/** A profile's tool exposure: as set, as in force, and the cost of its tools/list. */
export interface ProfileToolsView {
  /** As set on the profile; absent means the policy's default. */
  exposure?: Exposure;
  /** In force now (`auto` resolved against the profile's caps). */
  inForce: ExposureInForce;
  /** Tools in its tools/list. */
  listed: number;
  /** Tokens (o200k) of its tools/list. */
  tokens: number;
  /** Tools it may use (what search covers). */
  reachable: number;
}

/** A connected frontend session. */
export interface SessionView {
  id: string;
  profile: string;
  clientName?: string;
  clientVersion?: string;
  /** `legacy` = 2025-era session, `modern` = 2026-07-28 stateless client. */
  era: 'legacy' | 'modern';
  transport: 'http' | 'stdio';
  connectedAt: string;
  lastActivityAt: string;
}

/** A call waiting for the user's approval (`ask` rule). */
export interface ApprovalView {
  id: string;
  client: string;
  backend: string;
  tool: string;
  exposed: string;
  arguments?: Record<string, unknown>;
  requestedAt: string;
}

/** A tool whose definition changed since it was approved (pinned). */
export interface PinChangeView {
  backend: string;
  tool: string;
  /** The approved definition (absent: a new tool held for the scan's findings) and the new one, as JSON. */
  pinned?: Record<string, unknown>;
  offered: Record<string, unknown>;
  detectedAt: string;
}

/** A client app Switchboard can be installed into. */
export interface ClientAppView {
  id: string;
  name: string;
  configPath: string;
  detected: boolean;
  installed: boolean;
  transport: 'stdio' | 'http';
  supportsProject: boolean;
  toolNameBudget: number;
  problem?: ErrorData;
}

/** A server found in a client's config that could be imported. */
export interface ImportCandidateView {
  name: string;
  id: string;
  inSwitchboard: 'no' | 'same' | 'name-taken';
  /** Fields whose values go to the keychain on import (names only). */
  secretFields: string[];
  skipReason?: string;
  warnings: string[];
  /** What it will run and under which sandbox, before it is imported. */
  preview?: AddPreviewView;
}

/** The app and its endpoint. */
export interface AppInfo {
  version: string;
  /** The MCP endpoint clients connect to. */
  endpointUrl: string;
  configPath?: string;
  /** Where the UI runs. */
  host: 'electron' | 'headless';
  keychain: { available: boolean; reason?: string };
  /** A problem with the config file on disk that was refused (the running config stays). */
  configError?: string;
  /** Fields of the config file edited since the start that apply only after a restart (paths, e.g. `gateway.tls`). */
  restartNeeded?: string[];
}

/** One kept copy of the config file (the newest is 1). */
export interface ConfigBackupView {
  index: number;
  /** When the file it holds was replaced (ISO time). */
  savedAt: string;
  size: number;
  path: string;
}

/** What checking a server before it is added found. */
export interface BackendCheck {
  ok: boolean;
  serverInfo?: { name: string; version: string };
  counts?: { tools: number; resources: number; resourceTemplates: number; prompts: number };
  /** For a remote server that needs OAuth: adding it is fine, Authorize comes next. */
  needsAuthorization?: boolean;
  error?: ErrorData;
}
