/**
 * Plain-data types of client install and import: what the CLI prints and what
 * the UI's Clients screen will show. Errors travel as `ErrorData`.
 */
import { ErrorCode, type ErrorData } from '../../../../shared/errors.js';

/** The clients Switchboard can write to and import from. */
export const CLIENT_IDS = ['claude-desktop', 'claude-code', 'cursor', 'vscode', 'windsurf', 'zed', 'codex'] as const;
/** One of {@link CLIENT_IDS}. */
export type ClientId = (typeof CLIENT_IDS)[number];

/** The error codes of this module: a part of the one closed set in shared/errors.ts. */
export const ClientErrorCode = {
  UnknownClient: ErrorCode.UnknownClient,
  ClientConfigMalformed: ErrorCode.ClientConfigMalformed,
  ClientConfigUnexpected: ErrorCode.ClientConfigUnexpected,
  EntryConflict: ErrorCode.EntryConflict,
  NotInstalled: ErrorCode.NotInstalled,
  ProjectUnsupported: ErrorCode.ProjectUnsupported,
  WriteFailed: ErrorCode.ClientWriteFailed,
  ChangedSinceWrite: ErrorCode.ChangedSinceWrite,
  NoBackup: ErrorCode.NoBackup,
  SecretNotImported: ErrorCode.SecretNotImported,
  SecretStoreUnavailable: ErrorCode.SecretStoreUnavailable,
  ImportFailed: ErrorCode.ImportFailed,
} as const;
/** One of {@link ClientErrorCode}. */
export type ClientErrorCode = (typeof ClientErrorCode)[keyof typeof ClientErrorCode];

/** Platform facts client paths depend on (injectable so tests cover all three OSes). */
export interface PlatformEnv {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
}

/** How a client config entry launches Switchboard's stdio entry: absolute paths only. */
export interface Launcher {
  /** Absolute path of the program (node, or the installed app binary). */
  command: string;
  /** Arguments before the subcommand (e.g. the absolute path of bin/mcp-switchboard.js). */
  args: string[];
  /** Environment the entry must set, e.g. `ELECTRON_RUN_AS_NODE=1` when the program is the desktop app's binary. */
  env?: Record<string, string>;
}

/** What an installed entry points at. */
export interface EntryTarget {
  /** The MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** The bearer token this client presents. */
  token: string;
  launcher: Launcher;
  /** A non-default Switchboard config file, passed to `connect`. */
  configPath?: string;
  /** Project scope: the file is often committed, so it gets a `${SWITCHBOARD_TOKEN}` reference, not the token. */
  project: boolean;
}

/** One client as the Clients screen shows it. */
export interface ClientStatus {
  id: ClientId;
  name: string;
  /** The config file install writes to (user scope). */
  configPath: string;
  /** The client seems installed on this machine (its config file or directory exists). */
  detected: boolean;
  configExists: boolean;
  /** Our entry is in its config. */
  installed: boolean;
  /** The key of our entry (`sb` for Claude Code, else `switchboard`). */
  entryKey: string;
  transport: 'stdio' | 'http';
  supportsProject: boolean;
  /** Longest tool name the client accepts once it adds its own prefix (`mcp__sb__` for Claude Code). */
  toolNameBudget: number;
  /** Set when the file could not be read or parsed (then `installed` is false). */
  problem?: ErrorData;
}

/** What install, uninstall and import-with-replace did to a client file. */
export interface WriteOutcome {
  client: ClientId;
  path: string;
  /** False when the file already said what we wanted (nothing was written, no backup made). */
  changed: boolean;
  /** The copy of the previous file (absent when the file did not exist or nothing changed). */
  backup?: string;
  /** The entry written, for display (token masked). */
  entry?: Record<string, unknown>;
  /** Things the user should know (e.g. a project file references `${SWITCHBOARD_TOKEN}`). */
  notes: string[];
}

/** A server found in a client's config, as Switchboard would import it. */
export interface ImportCandidate {
  /** Its key in the client's config. */
  name: string;
  /** The backend ID it would get (the name made valid, and unique if taken by a different server). */
  id: string;
  /** The entry for Switchboard's `mcpServers`, with secrets already replaced by references; undefined if it cannot be imported. */
  entry?: Record<string, unknown>;
  /** `same`: Switchboard already has this server; `name-taken`: another server uses the name. */
  inSwitchboard: 'no' | 'same' | 'name-taken';
  /** Secret-looking values and what import does with each. */
  secrets: SecretFinding[];
  /** Why it cannot be imported, if it cannot. */
  skipReason?: string;
  warnings: string[];
}

/** A secret-looking env value or header, and where it will come from after import. */
export interface SecretFinding {
  /** `env.GITHUB_TOKEN` or `headers.Authorization`. */
  field: string;
  /** The reference written instead of the value (`${GITHUB_TOKEN}`), if any. */
  reference?: string;
  /** Whether that variable is set to the same value in the current environment, so the backend works as is. */
  resolves: boolean;
}
