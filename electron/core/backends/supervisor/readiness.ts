/**
 * Readiness as `/readyz` reports it: every enabled backend has finished its
 * first connection attempt and at least one is up or idle (or none is configured).
 */
import type { BackendStatus, Readiness } from '../../../../shared/model/health.js';

/** What readiness needs to know of one backend. */
export interface ReadinessInput {
  status: BackendStatus;
  enabled: boolean;
  settled: boolean;
  /** Its published catalog is the cached one while its first attempt runs. */
  publishedFromCache?: boolean;
}

/** Aggregates backends into readiness with counts per status. */
export function readinessOf(backends: Iterable<ReadinessInput>): Readiness {
  const counts: Record<BackendStatus, number> = {
    connecting: 0,
    up: 0,
    degraded: 0,
    down: 0,
    disabled: 0,
    'needs-authorization': 0,
    idle: 0,
  };
  let enabled = 0;
  let settled = true;
  let listable = true;
  for (const backend of backends) {
    counts[backend.status]++;
    if (backend.enabled) {
      enabled++;
      if (!backend.settled) settled = false;
      if (!backend.settled && !backend.publishedFromCache) listable = false;
    }
  }
  // An idle on-demand server serves its cached catalog and starts on the first request: it counts as serving.
  return {
    ready: settled && (enabled === 0 || counts.up + counts.degraded + counts.idle > 0),
    settled,
    listable,
    counts,
  };
}
