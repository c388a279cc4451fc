/**
 * Local error codes of MCP Switchboard. These are string codes for errors that
 * happen inside the proxy (config, limits, queueing); they are kept apart from
 * JSON-RPC protocol error codes, which only exist on the wire (compare the MCP
 * SDK's `SdkErrorCode` vs `ProtocolErrorCode`).
 */
export const ErrorCode = {
  ConfigInvalid: 'config_invalid',
  ConfigUnreadable: 'config_unreadable',
  /** The config file holds an edit that does not parse yet: it is not written until that is fixed. */
  ConfigUnparsed: 'config_unparsed',
  BackendLimit: 'backend_limit',
  CatalogLimit: 'catalog_limit',
  NameCollision: 'name_collision',
  UriCollision: 'uri_collision',
  UnsupportedTemplate: 'unsupported_template',
  QueueFull: 'queue_full',
  Timeout: 'timeout',
  BackendUnavailable: 'backend_unavailable',
  BackendRemoved: 'backend_removed',
  ConnectFailed: 'connect_failed',
  ListFailed: 'list_failed',
  UnknownBackend: 'unknown_backend',
  DuplicateBackend: 'duplicate_backend',
  UnknownClient: 'unknown_client',
  DuplicateClient: 'duplicate_client',
  /** A backend's input request (elicitation, sampling, roots) got no answer within `inputTimeoutMs`. */
  InputTimeout: 'input_timeout',
  /** No pending tool-definition change to approve for that backend and tool. */
  UnknownChange: 'unknown_change',
  /** A query's filter cannot be used (e.g. a `since` that is not a date). */
  InvalidQuery: 'invalid_query',
  /** A remote backend needs the user to authorize it (OAuth); not retried until they do. */
  AuthorizationRequired: 'authorization_required',
  /** An OAuth authorization flow failed (state mismatch, refused, timed out, cancelled). */
  AuthorizationFailed: 'authorization_failed',
  /** A contract call named no known method (UI <-> core). */
  UnknownMethod: 'unknown_method',
  /** A contract call's parameters are missing or of the wrong type. */
  InvalidParams: 'invalid_params',
  /** The method exists but this build or backend cannot do it (e.g. OAuth not available). */
  NotSupported: 'not_supported',
  /** A rule denies the item to the client asking (said to the local user; MCP clients get "unknown" instead). */
  PolicyDenied: 'policy_denied',
  /** No pending approval with that ID (answered, timed out or cancelled). */
  UnknownApproval: 'unknown_approval',
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
} as const;

/** One of the local error codes above. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The shape in which an error crosses any boundary (IPC, bridge, status APIs). */
export interface ErrorData {
  code: ErrorCode | string;
  message: string;
  data?: Record<string, unknown>;
}

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

/** Turns anything thrown into the plain error shape, keeping local codes. */
export function toErrorData(error: unknown): ErrorData {
  if (error instanceof SwitchboardError) return error.toData();
  if (error instanceof Error) return { code: 'internal', message: error.message };
  return { code: 'internal', message: String(error) };
}
