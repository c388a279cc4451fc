/**
 * Building the SDK transport for a backend. stdio children get the user's
 * environment merged with the backend's env (GUI apps have a minimal PATH;
 * see field notes) and their stderr piped into a ring buffer for the UI.
 */
import {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type AuthProvider,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { RemoteTransportKind } from '../../../../shared/model/transports.js';
import type { BackendConfig, RemoteBackendConfig } from '../../platform/config/schema.js';
import { resolveValues } from '../../platform/secrets/resolve.js';
import { explainSpawnFailures } from '../process/commandLookup.js';
import { nodeFetchWithLimit } from './nodeFetch.js';
import { failRequestsOnStreamEnd, type StreamFailures } from './streamEndWatch.js';
import type { SecretStore } from '../../platform/secrets/secretStore.js';
import { GroupStdioTransport } from './stdioTransport.js';
import { withPrincipalId } from '../../platform/config/principalId.js';
import { LaunchedHttpTransport } from './launchedHttpTransport.js';
import { sandboxedLaunch, type QuarantineLaunch, type SandboxContext } from '../process/sandbox/sandboxedLaunch.js';
import type { SandboxWatch } from '../process/sandbox/sandboxWatch.js';
import type { SandboxSetting } from '../../platform/config/schema.js';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/** How a backend's process is started: its message limit and, for stdio, its sandbox. */
export interface LaunchOptions {
  maxMessageBytes: number;
  /** A stdio server's sandbox in force (absent: none, as before sandboxes existed). */
  sandbox?:
    | {
        setting: SandboxSetting;
        context: SandboxContext;
        watch: SandboxWatch;
        /** Quarantined: it runs under the strict sandbox while reviewed (sandboxedLaunch.ts). */
        quarantine?: QuarantineLaunch | undefined;
      }
    | undefined;
  /** Tells, from a stdio line's first bytes, that it may be skipped undecoded (a log over the rate). */
  skipLine?: (head: Buffer, bytes: number) => boolean;
  /** A stdio line that is not JSON-RPC, skipped (stdoutJunk.ts). */
  onJunk?: (line: string) => void;
  /** A per-principal stdio server: whose process this is (`${principal.id}` in args, env, cwd; config/principalId.ts). */
  principalId?: string | undefined;
  /** A Streamable HTTP backend answered 404 to a request carrying this session id (reportingSessionNotFound, below). */
  onSessionNotFound?: OnSessionNotFound | undefined;
}

/** Default of the `maxMessageBytes` proxy option: 64 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** A transport plus what we need to supervise it. */
export interface BackendTransport {
  transport: Transport;
  /** PID of the stdio child, once started. */
  pid(): number | undefined;
  /**
   * Whether the server has answered the SDK's era probe (`server/discover`),
   * even after the probe gave up waiting; undefined where the transport
   * cannot tell.
   */
  probeAnswered?(): boolean;
}

/** Keeps the last `limit` lines written to a stream. */
export class LineTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(private readonly limit = 50) {}

  /** Appends a chunk of text. */
  push(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    for (const line of parts) this.add(line);
    if (this.partial.length > 4096) {
      this.add(this.partial);
      this.partial = '';
    }
  }

  private add(line: string): void {
    this.lines.push(line.length > 1000 ? `${line.slice(0, 1000)}…` : line);
    if (this.lines.length > this.limit) this.lines.shift();
  }

  /** The kept lines, oldest first, including an unfinished last line. */
  snapshot(): string[] {
    return this.partial ? [...this.lines, this.partial] : [...this.lines];
  }
}

/**
 * Creates the transport for one backend; `${VAR}` and secret references are
 * resolved now (a missing one rejects with `config_invalid` naming the field).
 * `authProvider` (remote only) supplies OAuth bearer tokens; a 403
 * insufficient_scope is thrown to us rather than re-authorized by the SDK, so
 * a browser never opens behind the user's back.
 */
export async function createBackendTransport(
  config: BackendConfig,
  environment: NodeJS.ProcessEnv,
  stderrTail: LineTail,
  secrets?: SecretStore,
  authProvider?: AuthProvider,
  limits: LaunchOptions = { maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES },
): Promise<BackendTransport> {
  const field = `mcpServers.${config.id}`;
  const inherited: Record<string, string> = { ...getDefaultEnvironment() };
  // Keep the user's full environment: servers started through npx, uvx or
  // docker need PATH, proxies and toolchain variables the SDK's safe list drops.
  for (const [key, value] of Object.entries(environment)) if (value !== undefined) inherited[key] = value;
  if (config.transport === 'stdio') {
    if (limits.principalId !== undefined) config = withPrincipalId(config, limits.principalId);
    const env = await resolveValues(config.env, environment, secrets, `${field}.env`);
    const line = await launchLine(config, { ...inherited, ...env }, limits.sandbox);
    const spawnEnv = { ...inherited, ...env, ...line.env };
    const cwd = line.cwd ?? config.cwd;
    if (process.platform !== 'win32') {
      // Own process group and per-message limit (stdioTransport.ts).
      const group = new GroupStdioTransport({
        command: line.command,
        args: line.args,
        env: spawnEnv,
        ...(cwd === undefined ? {} : { cwd }),
        maxMessageBytes: limits.maxMessageBytes,
        backendId: config.id,
        ...(limits.skipLine ? { skipLine: limits.skipLine } : {}),
        ...(limits.onJunk ? { onJunk: limits.onJunk } : {}),
      });
      group.stderr.on('data', (chunk: Buffer | string) => {
        const text = chunk.toString();
        stderrTail.push(text);
        limits.sandbox?.watch.scan(text);
      });
      explainSpawnFailures(group, { ...config, env }, environment); // a missing command said plainly
      return { transport: group, pid: () => group.pid, probeAnswered: () => group.probeAnswered };
    }
    // Windows has no process groups to speak of; the SDK's transport (cross-spawn resolves .cmd shims).
    const stdio = new StdioClientTransport({
      maxBufferSize: limits.maxMessageBytes,
      command: line.command,
      args: line.args,
      env: spawnEnv,
      ...(cwd === undefined ? {} : { cwd }),
      stderr: 'pipe',
    });
    stdio.stderr?.on('data', (chunk: Buffer | string) => {
      const text = chunk.toString();
      stderrTail.push(text);
      limits.sandbox?.watch.scan(text);
    });
    explainSpawnFailures(stdio, { ...config, env }, environment); // a missing command said plainly
    return { transport: stdio, pid: () => stdio.pid ?? undefined };
  }
  const headers = await resolveValues(config.headers, environment, secrets, `${field}.headers`);
  const open = REMOTE_CLIENTS[config.transport];
  const opening = () => open({ url: new URL(config.url), headers, authProvider, config, limits });
  if (!config.launch) return { transport: opening(), pid: () => undefined };
  // A server we run that serves the URL (launchedHttpTransport.ts).
  const { launch } = config;
  const env = await resolveValues(launch.env, environment, secrets, `${field}.launch.env`);
  const launched = new LaunchedHttpTransport(
    {
      command: launch.command,
      args: launch.args,
      env: { ...inherited, ...env },
      ...(launch.cwd === undefined ? {} : { cwd: launch.cwd }),
      backendId: config.id,
      url: new URL(config.url),
    },
    opening,
    (chunk) => stderrTail.push(chunk),
  );
  return { transport: launched, pid: () => launched.pid };
}

/**
 * The command and arguments a stdio server is spawned with: its own, or its
 * sandboxed line (backends/process/sandbox/). The watch learns what it runs
 * under, including a sandbox that cannot run here (then nothing is spawned).
 */
async function launchLine(
  config: BackendConfig & { transport: 'stdio' },
  env: Record<string, string>,
  sandbox: LaunchOptions['sandbox'],
): Promise<{ command: string; args: string[]; env?: Record<string, string>; cwd?: string }> {
  if (!sandbox) return { command: config.command, args: config.args };
  const { setting, context, watch, quarantine } = sandbox;
  try {
    const launch = await sandboxedLaunch(
      { id: config.id, command: config.command, args: config.args, cwd: config.cwd, env },
      setting,
      context,
      (line) => watch.violation(line),
      quarantine,
    );
    if (launch.policy) await watch.openProxy(launch.policy);
    else await watch.closeProxy();
    watch.launched(launch.view, launch.policy, launch.release);
    return launch;
  } catch (error) {
    if (error instanceof SwitchboardError && error.code === ErrorCode.SandboxUnavailable) {
      const reason = String(error.data?.['reason'] ?? error.message);
      const command = error.data?.['command'];
      watch.launched({
        state: 'unavailable',
        reason,
        read: setting.read,
        write: setting.write,
        network: setting.network,
        ...(typeof command === 'string' ? { quarantine: { mode: 'held' as const, command } } : {}),
      });
    }
    throw error;
  }
}

/** What opening a remote transport takes. */
interface RemoteOpening {
  url: URL;
  headers: Record<string, string>;
  authProvider: AuthProvider | undefined;
  config: RemoteBackendConfig;
  limits: Pick<LaunchOptions, 'maxMessageBytes' | 'onSessionNotFound'>;
}

/** How each remote transport is opened (keyed by the shared declaration, so a new one must be added here). */
const REMOTE_CLIENTS: Record<RemoteTransportKind, (opening: RemoteOpening) => Transport> = {
  http: ({ url, headers, authProvider, config, limits }) => {
    const failures: StreamFailures = {};
    // node:http keep-alive instead of undici: ~0.5-0.8 ms less proxy CPU per request.
    const limited = nodeFetchWithLimit(limits.maxMessageBytes, (why) => (failures.last = why));
    const { onSessionNotFound } = limits;
    // identity: some servers gzip SSE streams, which stalls incremental reads.
    const http = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { 'Accept-Encoding': 'identity', ...headers } },
      fetch: onSessionNotFound ? reportingSessionNotFound(limited, onSessionNotFound) : limited,
      ...(authProvider ? { authProvider, onInsufficientScope: 'throw' as const } : {}),
    });
    failRequestsOnStreamEnd(http, config.id, failures);
    return http;
  },
  sse: ({ url, headers, authProvider }) =>
    new SSEClientTransport(url, {
      requestInit: { headers },
      ...(authProvider ? { authProvider } : {}),
      eventSourceInit: {
        fetch: (input, init) =>
          fetch(input, { ...init, headers: { ...headers, ...(init?.headers as Record<string, string>) } }),
      },
    }),
};

/**
 * Which 2025-era session a Streamable HTTP backend answered HTTP 404 to (it
 * no longer knows it: MCP 2025-11-25, Streamable HTTP, "Session Management").
 * A request's own 404 reaches its caller as an error; the listen stream's GET
 * has no caller (the SDK only retries it a few times and gives up), so the
 * `fetch` under the transport says which session it carried, and the
 * connection opens a new one (connection/sessionRenewal.ts). Only a 404 costs
 * anything here.
 *
 * Told the session id (and the HTTP method) of each request answered 404.
 */
export type OnSessionNotFound = (sessionId: string, method: string) => void;

/** `fetch`, telling `onNotFound` about each 404 to a request that carried a session id. */
export function reportingSessionNotFound(
  fetch: typeof globalThis.fetch,
  onNotFound: OnSessionNotFound,
): typeof globalThis.fetch {
  return (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    if (response.status === 404) {
      const sessionId = new Headers(init?.headers).get('mcp-session-id');
      if (sessionId) onNotFound(sessionId, init?.method ?? 'GET');
    }
    return response;
  }) as typeof globalThis.fetch;
}
