/**
 * The core's supervisors by backend ID: a Map (insertion order is config
 * order) with the lookup every runtime action starts from, and readiness.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { Readiness } from '../../../../shared/model/health.js';
import type { ProxyOptions } from '../../platform/config/schema.js';
import { connectTimeoutMs } from '../connection/backendConnection.js';
import type { BackendSupervisor } from './backendSupervisor.js';
import { readinessOf } from './readiness.js';

/** Supervisors by backend ID, in config order. */
export class SupervisorMap extends Map<string, BackendSupervisor> {
  /** The backend's supervisor; throws `unknown_backend` when there is none. */
  require(id: string): BackendSupervisor {
    const supervisor = this.get(id);
    if (!supervisor) {
      throw new SwitchboardError(ErrorCode.UnknownBackend, `no backend with ID "${id}"`, { backend: id });
    }
    return supervisor;
  }

  /**
   * Ready once every enabled backend has finished its first connection attempt
   * and at least one is up (or none is configured).
   */
  readiness(): Readiness {
    return readinessOf(
      [...this.values()].map((supervisor) => ({
        status: supervisor.currentStatus,
        enabled: supervisor.config.enabled,
        settled: supervisor.isSettled,
        publishedFromCache: supervisor.publishedFromCache,
      })),
    );
  }

  /**
   * The latest time worth waiting for a backend still on its first attempt
   * (started at `startedAt`) with nothing published (the startup grace), or
   * undefined: none is.
   */
  firstAttemptDeadline(startedAt: number, proxy: ProxyOptions): number | undefined {
    let latest: number | undefined;
    for (const supervisor of this.values()) {
      if (supervisor.isSettled || supervisor.publishedFromCache || !supervisor.config.enabled) continue;
      latest = Math.max(latest ?? 0, startedAt + connectTimeoutMs(supervisor.config, proxy));
    }
    return latest;
  }
}
