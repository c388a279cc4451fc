/**
 * The one closed set of local error codes of MCP Switchboard, and the shape
 * in which an error crosses any boundary (IPC, bridge, status APIs). These
 * string codes are for errors that happen inside the proxy, the host or the
 * UI's pipe; they are kept apart from JSON-RPC protocol error codes (numbers,
 * only on the wire), as the MCP SDK keeps `SdkErrorCode` apart from
 * `ProtocolErrorCode`. A JSON-RPC error reaching the contract keeps its
 * number in `data.rpcCode` (see electron/core/platform/toErrorData.ts).
 */
export const ErrorCode = {
  // The config file
  ConfigInvalid: 'config_invalid',
  ConfigUnreadable: 'config_unreadable',
  /** The config file holds an edit that does not parse yet: it is not written until that is fixed. */
  ConfigUnparsed: 'config_unparsed',
  /** The config file is mounted read-only (a ConfigMap shared by replicas): changes are refused, naming where to make them. */
  ConfigReadOnly: 'config_read_only',

  // Limits and collisions of the catalog
  BackendLimit: 'backend_limit',
  CatalogLimit: 'catalog_limit',
  NameCollision: 'name_collision',
  UriCollision: 'uri_collision',
  UnsupportedTemplate: 'unsupported_template',

  // Requests to backends
  QueueFull: 'queue_full',
  Timeout: 'timeout',
  /** The call was cancelled by its caller (an AbortSignal). */
  Cancelled: 'cancelled',
  BackendUnavailable: 'backend_unavailable',
  BackendRemoved: 'backend_removed',
  ConnectFailed: 'connect_failed',
  ListFailed: 'list_failed',
  /** Health probes failed in a row: the backend is degraded (its catalog stays published). */
  ProbeFailed: 'probe_failed',
  /** A server's sandbox is on, but no sandbox can run on this machine (`data.reason` says why): it is not started. */
  SandboxUnavailable: 'sandbox_unavailable',
  /** A tool failed and its sandbox refused it something during the call (a Request log entry's code; `detail` says what). */
  SandboxBlocked: 'sandbox_blocked',
  /** A tool answered `isError: true` (an audit entry's code). */
  ToolError: 'tool_error',
  /** A backend's answer cannot be relayed to the frontend (e.g. not serializable). */
  UnrelayableResult: 'unrelayable_result',
  /** A message exceeded the size limit of its transport. */
  MessageTooLarge: 'message_too_large',
  /** A backend's stream ended while a request was in flight. */
  StreamEnded: 'stream_ended',
  /** A JSON-RPC error other than invalid params (its number is in `data.rpcCode`). */
  ProtocolError: 'protocol_error',
  /** A backend's input request (elicitation, sampling, roots) got no answer within `inputTimeoutMs` (`parkedCallTtlMs` for a parked call). */
  InputTimeout: 'input_timeout',
  /** A client profile has `proxy.maxTasksPerClient` live tasks already; retry once one ends (`data.retryable`). */
  TaskLimit: 'task_limit',
  /** This process holds `proxy.maxSessions` live 2025-era sessions already: initialize again later, or elsewhere (`data.retryable`). */
  SessionLimit: 'session_limit',
  /**
   * A rate limit or quota of `policy.limits` refused the request before it reached its server; retry after
   * `data.retryAfterMs` (`data.limit`: the rate, `data.scope`: the rule and whose bucket; `data.retryable`).
   */
  RateLimited: 'rate_limited',

  // Backends, clients and profiles by name
  UnknownBackend: 'unknown_backend',
  DuplicateBackend: 'duplicate_backend',
  UnknownClient: 'unknown_client',
  DuplicateClient: 'duplicate_client',
  /** No pending tool-definition change to approve for that backend and tool. */
  UnknownChange: 'unknown_change',
  /**
   * An approval past high-severity scan findings was asked without confirming them: nothing was
   * approved (`data.findings` names them; ask again confirming, e.g. `approve <id> --confirm-high`).
   */
  ConfirmationRequired: 'confirmation_required',
  /** No pending approval with that ID (answered, timed out or cancelled). */
  UnknownApproval: 'unknown_approval',
  /** A query's filter cannot be used (e.g. a `since` that is not a date). */
  InvalidQuery: 'invalid_query',
  /** Audit entries were not written (queue full, too large, or a failed write). */
  Dropped: 'dropped',

  // OAuth
  /** A remote backend needs the user to authorize it (OAuth); not retried until they do. */
  AuthorizationRequired: 'authorization_required',
  /** An OAuth authorization flow failed (state mismatch, refused, timed out, cancelled). */
  AuthorizationFailed: 'authorization_failed',
  /** Gateway mode: the caller's access token lacks a scope the tool needs (`data.scopes` names them); step up. */
  InsufficientScope: 'insufficient_scope',

  // The contract (UI <-> core) and its pipes
  /** A contract call named no known method. */
  UnknownMethod: 'unknown_method',
  /** A contract call's parameters are missing or of the wrong type (`data.path` names the field). */
  InvalidParams: 'invalid_params',
  /** The method exists but this build or backend cannot do it (e.g. OAuth not available). */
  NotSupported: 'not_supported',
  /** A rule denies the item to the client asking (said to the local user; MCP clients get "unknown" instead). */
  PolicyDenied: 'policy_denied',
  /** The page that called is not the UI's own page (IPC sender check). */
  Forbidden: 'forbidden',
  /** The Electron IPC call itself failed (the main process went away). */
  IpcFailed: 'ipc_failed',
  /** The UI's pipe to the core is closed or was lost (bridge WebSocket). */
  Disconnected: 'disconnected',
  /** Anything else: a bug or an error without a code of ours. */
  Internal: 'internal',

  // MCP registries and bundles
  /** No MCP registry could be reached (and nothing was cached). */
  RegistryUnavailable: 'registry_unavailable',
  /** A registry entry is not in the registry, or does not validate against the server.json schema. */
  RegistryEntryInvalid: 'registry_entry_invalid',
  /** A value an entry needs is missing or not one of its choices (`data.key` names the input). */
  InputInvalid: 'input_invalid',
  /** The command a backend needs (npx, uvx, dnx, docker) is not on PATH (`data.installUrl` says where to get it). */
  RuntimeMissing: 'runtime_missing',
  /** A .mcpb bundle is not valid (`data.field` names the field). */
  BundleInvalid: 'bundle_invalid',
  /** A .mcpb bundle holds more than a bundle may unpack to (`data.limit` names the limit: entries, entryBytes, totalBytes). */
  BundleTooLarge: 'bundle_too_large',

  // Client apps' config files (core/clients)
  /** The client's file does not parse: nothing was written. */
  ClientConfigMalformed: 'client_config_malformed',
  /** The file parses but is not shaped as the client expects (e.g. the server map is not an object). */
  ClientConfigUnexpected: 'client_config_unexpected',
  /** An entry under our key exists and is not ours. */
  EntryConflict: 'entry_conflict',
  NotInstalled: 'not_installed',
  ProjectUnsupported: 'project_unsupported',
  ClientWriteFailed: 'client_write_failed',
  /** Undo asked for, but the file changed since our write (restoring would lose those changes). */
  ChangedSinceWrite: 'changed_since_write',
  NoBackup: 'no_backup',
  /** A secret could not be imported without writing it to a plain file. */
  SecretNotImported: 'secret_not_imported',
  /** No OS keychain to put a secret in. */
  SecretStoreUnavailable: 'secret_store_unavailable',
  ImportFailed: 'import_failed',
} as const;

/** One of the local error codes above. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));

/** Whether `value` is one of our local error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && CODES.has(value);
}

/**
 * What the user can do about an error, as data (`data.fix`), so each front
 * end names its own control: the CLI its flag (`--replace`), the UI its box
 * ("Replace a profile of the same ID"). A core message never names either.
 */
export const ErrorFix = {
  /** A profile of that ID exists: replace it, or import under another ID. */
  ReplaceOrRename: 'replace_or_rename',
  /** No sandbox can run here: install what `data.reason` says, or add the server unsandboxed. */
  RunUnsandboxed: 'run_unsandboxed',
  /** A value the entry needs was not given (`data.key` names it): give it. */
  GiveValue: 'give_value',
} as const;

/** One of the fixes above. */
export type ErrorFix = (typeof ErrorFix)[keyof typeof ErrorFix];

const FIXES: ReadonlySet<string> = new Set(Object.values(ErrorFix));

/** The fix `error` carries (`data.fix`), if any. */
export function fixOf(error: ErrorData | undefined): ErrorFix | undefined {
  const fix = error?.data?.['fix'];
  return typeof fix === 'string' && FIXES.has(fix) ? (fix as ErrorFix) : undefined;
}

/** The shape in which an error crosses any boundary (IPC, bridge, status APIs). */
export interface ErrorData {
  code: ErrorCode;
  message: string;
  data?: Record<string, unknown>;
}

/**
 * How every fallible operation settles, across the contract and inside the
 * core alike: a result, or an error (as data, `ErrorData` unless said).
 */
export type Result<T, E = ErrorData> = { ok: true; result: T } | { ok: false; error: E };

/** An error raised inside the proxy, carrying a local code and optional details. */
export class SwitchboardError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, data?: Record<string, unknown>) {
    super(message);
    this.name = 'SwitchboardError';
    this.code = code;
    this.data = data;
  }

  /** Plain-data form, safe to serialize. */
  toData(): ErrorData {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }
}
