/**
 * The transports a backend can be reached over: the one declaration the
 * config schema, the health view, config imports and the UI's server form
 * derive from. Adding a transport means an entry here and its client in
 * electron/core/backends/transport/transports.ts (the compiler points there).
 */

/** What the rest of the app needs to know of one transport. */
interface TransportDeclaration {
  /** Reached at a URL (with headers and OAuth), not started as a command. */
  readonly remote: boolean;
  /** The `type` / `transport` values of a config entry that name it (the first is ours). */
  readonly spellings: readonly [string, ...string[]];
  /** Its badge on a server card. */
  readonly badge: string;
  /** Its choice in the server form. */
  readonly choice: string;
}

/** Every transport, in the order the server form offers them. */
export const BACKEND_TRANSPORTS = {
  stdio: { remote: false, spellings: ['stdio'], badge: 'stdio', choice: 'Command (stdio)' },
  http: {
    remote: true,
    // MCP spec 2025-03-26 "Streamable HTTP"; clients' configs spell it three ways.
    spellings: ['http', 'streamable-http', 'streamableHttp'],
    badge: 'Streamable HTTP',
    choice: 'URL (Streamable HTTP)',
  },
  // The HTTP+SSE transport of MCP spec 2024-11-05.
  sse: { remote: true, spellings: ['sse'], badge: 'SSE', choice: 'URL (legacy SSE)' },
} as const satisfies Record<string, TransportDeclaration>;

type Declared = typeof BACKEND_TRANSPORTS;

/** The transports a backend can be reached over. */
export type TransportKind = keyof Declared;

/** The transports reached at a URL. */
export type RemoteTransportKind = {
  [K in TransportKind]: Declared[K]['remote'] extends true ? K : never;
}[TransportKind];

/** Every transport, in declaration order. */
export const TRANSPORT_KINDS = Object.keys(BACKEND_TRANSPORTS) as TransportKind[];

/** The remote transports, in declaration order. */
export const REMOTE_TRANSPORTS = TRANSPORT_KINDS.filter((kind) => isRemoteTransport(kind));

/** The remote transport of an entry with a URL and no `type`; written without one. */
export const DEFAULT_REMOTE_TRANSPORT: RemoteTransportKind = 'http';

/** Every spelling of a remote transport a config entry may use. */
export const REMOTE_SPELLINGS = REMOTE_TRANSPORTS.flatMap((kind) => BACKEND_TRANSPORTS[kind].spellings) as [
  string,
  ...string[],
];

/** The transport a `type` / `transport` value names (undefined: none of ours). */
export function transportNamed(spelling: unknown): TransportKind | undefined {
  return TRANSPORT_KINDS.find((kind) => (BACKEND_TRANSPORTS[kind].spellings as readonly unknown[]).includes(spelling));
}

/** The remote transport a value names, else the default (an entry with a URL is remote whatever it says). */
export function remoteTransportNamed(spelling: unknown): RemoteTransportKind {
  const kind = transportNamed(spelling);
  return kind !== undefined && isRemoteTransport(kind) ? kind : DEFAULT_REMOTE_TRANSPORT;
}

/** Whether a transport is reached at a URL. */
export function isRemoteTransport(kind: TransportKind): kind is RemoteTransportKind {
  return BACKEND_TRANSPORTS[kind].remote;
}

/** The `type` a config entry for a remote transport carries (none for the default). */
export function entryTypeOf(kind: RemoteTransportKind): { type?: RemoteTransportKind } {
  return kind === DEFAULT_REMOTE_TRANSPORT ? {} : { type: kind };
}

/** `a, b or c`: the transports in a message. */
export function transportList(kinds: readonly string[] = TRANSPORT_KINDS): string {
  return kinds.length < 2 ? kinds.join('') : `${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}`;
}
