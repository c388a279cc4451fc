/**
 * The server.json shapes Switchboard reads (the official schema has more; see
 * serverSchema.ts), and what the registry client returns.
 */

/** An input: a value the user may have to give (argument, variable, env var, header). */
export interface ServerInput {
  description?: string;
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  isRequired?: boolean;
  isSecret?: boolean;
  default?: string;
  placeholder?: string;
  value?: string;
  choices?: string[];
  variables?: Record<string, ServerInput>;
}

/** A runtime or package argument. */
export interface ServerArgument extends ServerInput {
  type: 'positional' | 'named';
  /** Named: the flag, dashes included. */
  name?: string;
  /** Positional: the label (not part of the command line). */
  valueHint?: string;
  isRepeated?: boolean;
}

/** An env var or header. */
export interface KeyValueInput extends ServerInput {
  name: string;
}

/** How a package or remote is reached. */
export interface ServerTransport {
  type: 'stdio' | 'streamable-http' | 'sse';
  url?: string;
  headers?: KeyValueInput[];
  variables?: Record<string, ServerInput>;
}

/** One way to run the server locally. */
export interface ServerPackage {
  registryType: 'npm' | 'pypi' | 'nuget' | 'oci' | 'mcpb';
  registryBaseUrl?: string;
  identifier: string;
  version?: string;
  fileSha256?: string;
  runtimeHint?: string;
  transport: ServerTransport;
  runtimeArguments?: ServerArgument[];
  packageArguments?: ServerArgument[];
  environmentVariables?: KeyValueInput[];
}

/** A server.json document (validated). */
export interface ServerJson {
  $schema?: string;
  name: string;
  description: string;
  title?: string;
  version: string;
  websiteUrl?: string;
  repository?: { url: string; source: string; subfolder?: string };
  packages?: ServerPackage[];
  remotes?: (ServerTransport & { url: string })[];
}

/** Registry-managed metadata of an answer (`_meta["io.modelcontextprotocol.registry/official"]`). */
export interface OfficialMeta {
  status?: 'active' | 'deprecated' | 'deleted';
  publishedAt?: string;
  updatedAt?: string;
  isLatest?: boolean;
}

/** One entry as the client returns it: valid (with its document) or invalid (with the reason). */
export type RegistryEntry = {
  /** The registry base URL it came from. */
  registry: string;
  name: string;
  version: string;
  official: OfficialMeta | undefined;
} & ({ valid: true; server: ServerJson } | { valid: false; reason: string });

/** Where an answer came from: the network, or the cache when the registry could not be reached. */
export interface Freshness {
  /** Served from the cache because the registry could not be reached. */
  offline: boolean;
  /** When the answer was fetched (ms since the epoch). */
  fetchedAt: number;
  /** Why the registry could not be reached (offline only). */
  reason?: string;
}

/** One page of a search. */
export interface SearchPage extends Freshness {
  entries: RegistryEntry[];
  /** Pass back to get the next page; absent on the last one. */
  nextCursor?: string;
  /** Registries that could not be reached and had nothing cached. */
  failures: { registry: string; message: string }[];
}
