/**
 * One live connection to one backend: the SDK client, its transport, the
 * request queue, the stdio child's PID and stderr tail. It knows nothing of the
 * catalog or of other backends. Its connect timeout (how long one start may
 * take) is also what the launch and the core allow a start.
 */
import type { AuthProvider, Client, McpSubscription, Transport } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { ProtocolEra } from '../../../../shared/model/health.js';
import {
  authorizationProblem,
  authorizationRequired,
  type AuthorizationProblem,
} from '../../platform/auth/authErrors.js';
import { BACKEND_INPUT_CAPABILITIES, CallTracker } from './callTracking.js';
import { LegacyUpstream, ModernUpstream, type UpstreamSubscriptions } from './upstreamSubscriptions.js';
import { createBackendClient, raceAbort, type BackendClientOptions } from './backendClient.js';
import { launchKey, type EraVerdict, type IBackendEras } from './backendEras.js';
import { BackendRequests, type BackendCatalog, type ToolCallOptions } from './backendRequests.js';
import type { CallToolRequestParams, CallToolResult, InputRequiredResult } from '@modelcontextprotocol/client';
import { processTree, reapTree } from '../process/processTree.js';
import { RequestQueue, type TaskContext } from './requestQueue.js';
import type { BackendConfig, ProxyOptions } from '../../platform/config/schema.js';
import type { SecretStore } from '../../platform/secrets/secretStore.js';
import { liftTaskResults } from './taskResultLift.js';
import { PlainRelay } from './plainRelay.js';
import { describeBlock } from '../process/sandbox/blockedAccess.js';
import { withRefusals } from '../process/sandbox/callRefusals.js';
import {
  createBackendTransport,
  type BackendTransport,
  type LaunchOptions,
  type LineTail,
} from '../transport/transports.js';
import { NotificationLimiter } from './notificationLimits.js';
import { StdoutJunk } from '../transport/stdoutJunk.js';
import type { Logger } from '../../platform/deps.js';
import { SessionRenewal } from './sessionRenewal.js';

export type { BackendCatalog } from './backendRequests.js';

/** What the connection needs from its owner (besides what its SDK client is built from). */
export interface BackendConnectionOptions extends BackendClientOptions {
  environment: NodeJS.ProcessEnv;
  /** Where `{"secret": NAME}` env and header values are read from. */
  secrets?: SecretStore | undefined;
  /** Where the stdio child's stderr goes; owned by the caller so it outlives the connection. */
  stderrTail: LineTail;
  /** Log messages or progress went over the backend's rate limits, or a stdio server wrote junk (health changed). */
  onNotificationsLimited?: () => void;
  /** Where a stdio server's junk on stdout is logged (stdoutJunk.ts). */
  logger?: Logger | undefined;
  /** Called once when the connection closes without `close()` being called. */
  onUnexpectedClose?: (error: SwitchboardError) => void;
  /** OAuth bearer tokens for a remote backend. */
  authProvider?: AuthProvider | undefined;
  /** A request failed for want of the user's authorization (401 we could not answer, 403 insufficient_scope). */
  onAuthorizationProblem?: (problem: AuthorizationProblem) => void;
  /** A stdio server's sandbox in force and where its refusals are recorded (transport/transports.ts). */
  sandbox?: LaunchOptions['sandbox'];
  /** Makes the transport instead of the config's (an in-process backend in unit tests). */
  transport?: (() => Promise<BackendTransport>) | undefined;
  /** A per-principal stdio server: whose process this connection starts (transport/transports.ts). */
  principalId?: string | undefined;
  /** Eras found by earlier probes of stdio servers (`protocol: "auto"`), so each is probed once. */
  eras?: IBackendEras | undefined;
  /** A 2025-era HTTP backend forgot our session and a new one was opened (sessionRenewal.ts): re-list. */
  onSessionRenewed?: () => void;
}

const LEGACY_IGNORED: EraVerdict = { kind: 'legacy', probe: 'ignored' };
const LEGACY_EXITED: EraVerdict = { kind: 'legacy', probe: 'exited' };

/** The SDK's error for a stdio server that closed its pipe during the era probe. */
function isProbeClose(error: unknown): boolean {
  return error instanceof Error && /closed during the server\/discover probe/.test(error.message);
}

/** Starting a server (npx may download it first) and listing it get at least this long. */
const START_TIMEOUT_FLOOR_MS = 30_000;

/** How long one start (spawn or connect, handshake, first listing) may take: the backend's connect timeout. */
export function connectTimeoutMs(backend: BackendConfig, proxy: ProxyOptions): number {
  return Math.max(backend.requestTimeoutMs ?? proxy.requestTimeoutMs, START_TIMEOUT_FLOOR_MS);
}

/** The text blocks of an error result (what a server says went wrong). */
function errorText(result: CallToolResult): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
}

/** A connection to one backend. Create, `connect()`, use, `close()`. */
export class BackendConnection extends BackendRequests {
  readonly id: string;
  readonly stderrTail: LineTail;
  /** Calls in flight, so the backend's input requests reach the frontend that made the call. */
  readonly inputs: CallTracker;
  private readonly queue: RequestQueue;
  private backendTransport: BackendTransport | undefined;
  /** No more requests: closed by us or by the backend. */
  private ended = false;
  /** `close()` has run (it reaps the process tree once). */
  private closing = false;
  /** Why the connection ended; in-flight and later requests fail with it. */
  private closeReason: SwitchboardError | undefined;
  private lastTransportError: Error | undefined;
  private upstream: UpstreamSubscriptions | undefined;
  /** The backend's log and progress notifications, held to its rates before the SDK client sees them. */
  readonly limits: NotificationLimiter;
  /** A stdio server's lines on stdout that are not JSON-RPC, counted for health and the log. */
  readonly junk: StdoutJunk;
  /** A 2025-era HTTP session the backend forgot, opened anew (sessionRenewal.ts). */
  private readonly renewal: SessionRenewal;

  /** Whether this stdio server (`protocol: "auto"` only) is known to ignore or exit on the era probe, and its key. */
  private readonly remembered: { key: string; verdict: EraVerdict | undefined } | undefined;

  constructor(private readonly options: BackendConnectionOptions) {
    const { config, proxy } = options;
    const key = config.protocol === 'auto' && !options.transport ? launchKey(config) : undefined;
    const verdict = key ? options.eras?.recall(key) : undefined;
    super(createBackendClient(options, config.requestTimeoutMs ?? proxy.requestTimeoutMs, verdict !== undefined));
    this.remembered = key && options.eras ? { key, verdict } : undefined;
    this.id = config.id;
    this.limits = new NotificationLimiter(
      config.id,
      {
        logsPerSecond: proxy.maxLogsPerSecond,
        logBytesPerSecond: proxy.maxLogBytesPerSecond,
        progressPerSecond: proxy.maxProgressPerSecond,
      },
      { log: (params) => options.onLog?.(params), dropping: () => options.onNotificationsLimited?.() },
    );
    this.junk = new StdoutJunk(config.id, {
      log: (message) => options.logger?.warn(message),
      first: () => options.onNotificationsLimited?.(),
    });
    this.stderrTail = options.stderrTail;
    this.inputs = new CallTracker(this.client, config.id);
    this.queue = new RequestQueue({
      backendId: config.id,
      maxQueue: config.maxQueue ?? proxy.maxQueue,
      serialize: config.serialize,
      timeoutMs: this.timeoutMs,
    });
    this.renewal = new SessionRenewal({
      backendId: config.id,
      sessionId: () => this.sessionId,
      reopen: (signal) => this.reopenSession(signal),
      timeoutMs: () => this.timeoutMs,
      renewed: () => options.onSessionRenewed?.(),
    });
  }

  /**
   * tools/call; a sandboxed server's error answer is also read for what its
   * sandbox refused (a server that catches its EACCES and answers with it),
   * and an error during which the sandbox refused something starts with
   * saying so (callRefusals.ts). Nothing more for a server without a sandbox.
   */
  override async callTool(
    params: CallToolRequestParams,
    options: ToolCallOptions,
  ): Promise<CallToolResult | InputRequiredResult> {
    const watch = this.options.sandbox?.watch;
    if (!watch) return super.callTool(params, options);
    const mark = watch.mark();
    const result = await super.callTool(params, options);
    if ((result as CallToolResult).isError !== true) return result;
    watch.scan(errorText(result as CallToolResult));
    const blocked = watch.since(mark);
    return blocked.length === 0 ? result : withRefusals(result as CallToolResult, blocked, this.id, watch.home);
  }

  private get timeoutMs(): number {
    return this.options.config.requestTimeoutMs ?? this.options.proxy.requestTimeoutMs;
  }

  /**
   * Starting a server (npx may download it first) and listing its catalog may
   * take longer than one request; never less than 30 s.
   */
  private get startTimeoutMs(): number {
    return connectTimeoutMs(this.options.config, this.options.proxy);
  }

  /** The raw SDK client, for tests only: the core goes through the typed requests (BackendRequests). */
  get sdkClient(): Client {
    return this.client;
  }

  /** PID of the stdio child, if any. */
  get pid(): number | undefined {
    return this.backendTransport?.pid();
  }

  get era(): ProtocolEra | undefined {
    return this.client.getProtocolEra();
  }

  get protocolVersion(): string | undefined {
    return this.client.getNegotiatedProtocolVersion();
  }

  get serverInfo(): { name: string; version: string } | undefined {
    const info = this.client.getServerVersion();
    return info ? { name: info.name, version: info.version } : undefined;
  }

  /** Requests outstanding on this backend. */
  get outstanding(): number {
    return this.queue.size;
  }

  /** Starts the transport and runs the handshake, bounded by the request timeout. */
  async connect(signal?: AbortSignal): Promise<void> {
    const { config, environment, secrets } = this.options;
    // Closed while it waited to start (a start slot, the login shell): a child spawned now would
    // outlive its close, which has already run and reaped nothing (a stop during start-up, at quit).
    if (this.closing) throw this.closedBeforeStart();
    const backendTransport = this.options.transport
      ? await this.options.transport()
      : await createBackendTransport(config, environment, this.stderrTail, secrets, this.options.authProvider, {
          maxMessageBytes: this.options.proxy.maxMessageBytes,
          sandbox: this.options.sandbox,
          principalId: this.options.principalId,
          // A stdio server's logs over the rate are skipped before they are even decoded.
          skipLine: (head, bytes) => this.limits.skipsRawLine(head, bytes),
          onJunk: (line) => this.junk.note(line),
          // The listen stream's GET met a forgotten session (a request's own 404 is handled in run()).
          onSessionNotFound: (sessionId, method) => {
            if (method === 'GET') this.renewal.listenLost(sessionId);
          },
        });
    if (this.closing) {
      await backendTransport.transport.close().catch(() => undefined);
      throw this.closedBeforeStart();
    }
    this.backendTransport = backendTransport;
    const transport = this.backendTransport.transport;
    transport.onerror = (error) => {
      this.lastTransportError = error;
    };
    const deadline = AbortSignal.timeout(this.startTimeoutMs);
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
    try {
      await raceAbort(this.handshake(transport), combined);
    } catch (error) {
      await this.close();
      const problem = authorizationProblem(error);
      if (problem) throw authorizationRequired(config.id, problem);
      throw new SwitchboardError(ErrorCode.ConnectFailed, `cannot connect to "${config.id}": ${this.describe(error)}`, {
        backend: config.id,
      });
    }
    // Before the task lift and the limits: the relay sees what the SDK client would.
    this.relay = PlainRelay.attach(this.client);
    liftTaskResults(transport);
    this.limits.attach(transport);
    this.watchChangeStream(this.client.autoOpenedSubscription);
    this.client.onclose = () => {
      this.relay?.closed();
      if (this.ended) return;
      this.ended = true;
      const detail = this.lastTransportError?.message ?? this.stderrTail.snapshot().at(-1) ?? 'connection closed';
      this.closeReason = new SwitchboardError(
        ErrorCode.BackendUnavailable,
        `backend "${config.id}" disconnected: ${detail}`,
        { backend: config.id },
      );
      this.options.onUnexpectedClose?.(this.closeReason);
    };
  }

  /**
   * `server/discover` (2026-07-28) or `initialize` (2025), per the backend's
   * `protocol`. A stdio server known to ignore or exit on the era probe goes
   * straight to `initialize`; one found to do so now is remembered
   * (backendEras.ts).
   */
  private async handshake(transport: Transport): Promise<void> {
    const era = this.remembered;
    try {
      await this.client.connect(transport, { timeout: this.startTimeoutMs });
    } catch (error) {
      if (era && !era.verdict && isProbeClose(error)) this.options.eras?.remember(era.key, LEGACY_EXITED);
      throw error;
    }
    if (!era || era.verdict || this.client.getProtocolEra() !== 'legacy') return;
    // A 2025 server that never answered the probe, not even late (a server slow to start, a first
    // `npx` download, answers it before `initialize`, in the order it reads them): it ignores it.
    if (this.backendTransport?.probeAnswered?.() === false) this.options.eras?.remember(era.key, LEGACY_IGNORED);
  }

  /** Explains a failure, adding the stdio child's last stderr line when there is one. */
  private describe(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    const lastLine = this.stderrTail
      .snapshot()
      .filter((line) => line.trim())
      .at(-1);
    const described = lastLine && !message.includes(lastLine) ? `${message} (stderr: ${lastLine})` : message;
    // A sandboxed server that could not start for something its sandbox refused: say what.
    const blocked = this.options.sandbox?.watch.snapshot()?.blocked ?? [];
    if (blocked.length === 0) return described;
    const home = this.options.sandbox?.watch.home;
    return `${described}; ${blocked
      .slice(-3)
      .map((block) => describeBlock(block, home))
      .join('; ')}`;
  }

  /** Fetches every page of every list the backend advertises. */
  async listCatalog(signal?: AbortSignal): Promise<BackendCatalog> {
    try {
      return await this.run(
        'listing the catalog',
        ({ signal: taskSignal, sdkTimeoutMs }) => this.listAll({ signal: taskSignal, timeout: sdkTimeoutMs() }),
        signal,
        this.startTimeoutMs,
      );
    } catch (error) {
      if (
        error instanceof SwitchboardError &&
        error.code !== ErrorCode.ListFailed &&
        error.code !== ErrorCode.Timeout
      ) {
        throw error;
      }
      throw new SwitchboardError(
        ErrorCode.ListFailed,
        `cannot list the catalog of "${this.id}": ${this.describe(error)}`,
        {
          backend: this.id,
        },
      );
    }
  }

  /**
   * Runs one request through the queue (bounded, optionally serialized, with a
   * deadline). The task gets the SDK client and a signal to pass on.
   */
  run<T>(
    label: string,
    task: (context: TaskContext) => Promise<T>,
    callerSignal?: AbortSignal,
    timeoutMs?: number,
  ): Promise<T> {
    if (this.ended) {
      return Promise.reject(
        this.closeReason ??
          new SwitchboardError(ErrorCode.BackendUnavailable, `backend "${this.id}" is closed`, { backend: this.id }),
      );
    }
    // A 2025-era HTTP session the backend forgot is renewed and the request sent once more.
    const send: typeof task =
      this.sessionId === undefined ? task : (context) => this.renewal.send(() => task(context), context.signal);
    return this.queue.run(label, send, callerSignal, timeoutMs).catch((error: unknown) => {
      // The SDK fails in-flight requests with "Connection closed"; say why it closed.
      if (this.ended && this.closeReason) throw this.closeReason;
      const problem = authorizationProblem(error);
      if (!problem) throw error;
      this.options.onAuthorizationProblem?.(problem);
      throw authorizationRequired(this.id, problem);
    });
  }

  /**
   * On a 2026-07-28 connection, list changes arrive on the listen stream the
   * SDK opened for our `listChanged` handlers. The SDK never reopens it, so a
   * stream the server ends is reopened here (after a pause, while connected)
   * and the catalog re-listed, since changes may have been missed meanwhile.
   */
  private watchChangeStream(subscription: McpSubscription | undefined): void {
    if (!subscription) return;
    const filter = subscription.honoredFilter;
    void subscription.closed.then(async (how) => {
      if (how === 'local' || this.ended) return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (this.ended) return;
      try {
        this.watchChangeStream(await this.client.listen(filter));
        this.options.onListChanged?.();
      } catch {
        // The connection is going away; the supervisor handles that.
      }
    });
  }

  /** The 2025-era Streamable HTTP session our requests carry (none on stdio or 2026-07-28). */
  private get sessionId(): string | undefined {
    return this.era === 'legacy' ? this.backendTransport?.transport.sessionId : undefined;
  }

  /**
   * A new session for a backend that forgot ours: `initialize` through the same
   * transport (which sends it without a session id and keeps the new one), then
   * `notifications/initialized` (which opens the new listen stream) and the
   * resource subscriptions the old session held. A backend that now speaks
   * another version is connected again from scratch (the supervisor reconnects).
   */
  private async reopenSession(signal: AbortSignal): Promise<void> {
    const protocolVersion = this.protocolVersion;
    if (protocolVersion === undefined) throw new Error('no protocol version was negotiated');
    const answer = await this.client.request(
      {
        method: 'initialize',
        params: { protocolVersion, capabilities: BACKEND_INPUT_CAPABILITIES, clientInfo: this.options.clientInfo },
      },
      { signal, timeout: this.timeoutMs },
    );
    if (answer.protocolVersion !== protocolVersion) {
      const why = `it answered the new session in ${answer.protocolVersion}, not ${protocolVersion}`;
      this.lastTransportError = new Error(`backend "${this.id}" restarted: ${why}`);
      void this.client.close();
      throw new Error(why);
    }
    await this.client.notification({ method: 'notifications/initialized' });
    await this.upstream?.renew(signal);
  }

  /** Resource subscriptions toward this backend, in its era's way. */
  subscriptions(): UpstreamSubscriptions {
    this.upstream ??=
      this.era === 'modern'
        ? new ModernUpstream(this.client)
        : new LegacyUpstream(this.client, (send) => this.withSession(send));
    return this.upstream;
  }

  /** One request outside the queue, bounded by the request timeout, on a renewed session if the backend forgot ours. */
  private withSession<T>(send: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    if (this.sessionId === undefined) return send(signal);
    return this.renewal.send(() => send(signal), signal);
  }

  private closedBeforeStart(): SwitchboardError {
    const id = this.options.config.id;
    return new SwitchboardError(ErrorCode.BackendRemoved, `backend "${id}" was stopped before it started`, {
      backend: id,
    });
  }

  /**
   * Closes the connection and reaps the stdio child's whole process tree.
   * Requests still in flight fail with `reason` when one is given.
   */
  async close(reason?: SwitchboardError): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.ended = true;
    this.closeReason ??= reason;
    this.queue.clear();
    this.limits.stop();
    this.junk.stop();
    await this.upstream?.close().catch(() => undefined);
    const pid = this.pid;
    // List the tree before anything dies: orphans are re-parented and lost.
    const tree = pid === undefined ? [] : await processTree(pid);
    await Promise.allSettled([this.client.close(), reapTree(tree)]);
  }
}
