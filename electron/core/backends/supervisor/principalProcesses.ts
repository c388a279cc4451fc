/**
 * The people's own processes of a per-principal stdio server
 * (`instances: "per-principal"`): one per signed-in person, kept by the
 * supervisor's CallerConnections (started at the person's first request,
 * stopped when idle, LRU-bounded, each reaped with its process tree). Each
 * is launched with `${principal.id}` naming its person (config/principalId.ts)
 * and in the server's sandbox; nothing of it reaches anyone else: its catalog,
 * list changes, resource updates, tasks' pushed status and log notifications
 * are not used (the catalog comes from the server's own process, the local
 * user's). Its stderr goes to the server's tail, which only the UI shows.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { principalIdOf } from '../../platform/config/principalId.js';
import type { StdioBackendConfig } from '../../platform/config/schema.js';
import { BackendConnection } from '../connection/backendConnection.js';
import { launchKey } from '../connection/backendEras.js';
import type { LaunchOptions, LineTail } from '../transport/transports.js';
import type { CallerConnections } from './callerConnections.js';
import type { SupervisorHost } from './supervisorHost.js';

/** What the processes need of their supervisor. */
export interface PrincipalProcessesOwner {
  config(): StdioBackendConfig;
  readonly host: SupervisorHost;
  readonly stderrTail: LineTail;
  /** The server's sandbox for a launch. */
  sandbox(): LaunchOptions['sandbox'];
  /** Whether it serves now (not stopped, enabled). */
  serving(): boolean;
}

/** One person's process of a per-principal server, by caller key. */
export class PrincipalProcesses {
  constructor(
    private readonly owner: PrincipalProcessesOwner,
    private readonly callers: CallerConnections,
  ) {}

  /** The person's own process, started first when none runs (bounded by `signal` and the connect timeout). */
  async connection(caller: string, signal?: AbortSignal): Promise<BackendConnection> {
    const { config, host } = this.owner;
    if (!this.owner.serving()) {
      const id = config().id;
      throw new SwitchboardError(ErrorCode.BackendUnavailable, `backend "${id}" is not running`, { backend: id });
    }
    await host.deps.environmentReady;
    const known = this.knownEra();
    try {
      return await this.callers.acquire(caller, signal);
    } catch (error) {
      // Its first start found the server exits on the era probe (backendEras.ts): once more, without it.
      if (known || !this.knownEra()) throw error;
      return this.callers.acquire(caller, signal);
    }
  }

  /** A new process of the person's (not started yet); `onClosed` when it drops. */
  open(caller: string, onClosed: () => void): BackendConnection {
    const { host, stderrTail } = this.owner;
    const config = this.owner.config();
    return new BackendConnection({
      config,
      proxy: host.proxyOptions(),
      environment: host.deps.environment,
      secrets: host.secrets,
      clientInfo: host.deps.clientInfo,
      stderrTail,
      sandbox: this.owner.sandbox(),
      eras: host.eras,
      onUnexpectedClose: onClosed,
      onListChanged: () => undefined,
      onNotificationsLimited: () => host.changed(config.id),
      logger: host.deps.logger,
      onResourceUpdated: () => undefined,
      principalId: principalIdOf(caller),
    });
  }

  /** Whether the era of the server's launch line is known (no probe at its next start). */
  private knownEra(): boolean {
    const key = launchKey(this.owner.config());
    return key !== undefined && this.owner.host.eras?.recall(key) !== undefined;
  }
}
