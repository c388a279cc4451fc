/**
 * A supervisor's health report (without catalog counts, which the core adds):
 * what one backend's state, connection and OAuth say, and never a secret.
 */
import type { BackendHealth } from '../../../../shared/model/health.js';
import type { BackendAuth } from '../../platform/auth/backendAuth.js';
import type { BackendConfig } from '../../platform/config/schema.js';
import type { BackendConnection } from '../connection/backendConnection.js';
import type { LineTail } from '../transport/transports.js';
import type { SupervisorStatus } from './supervisorStatus.js';
import type { HealthProbe } from './healthProbe.js';
import type { ReconnectSchedule } from './backoff.js';

/** What the report is made of. */
export interface SupervisorState {
  config: BackendConfig;
  state: Pick<SupervisorStatus, 'status' | 'settled' | 'lastError' | 'restarts' | 'startMs'>;
  connection: BackendConnection | undefined;
  prober: Pick<HealthProbe, 'failures' | 'lastProbeAt'>;
  reconnect: Pick<ReconnectSchedule, 'nextRetryAt'>;
  stderrTail: LineTail;
  auth: BackendAuth | undefined;
  /** Its published catalog is the cached one (no live listing yet). */
  cached: boolean;
  start: 'eager' | 'on-demand';
}

/** Builds the health of one backend. */
export function supervisorHealth(report: SupervisorState): Omit<BackendHealth, 'counts' | 'warnings'> {
  const { connection, config, state, prober } = report;
  const health: Omit<BackendHealth, 'counts' | 'warnings'> = {
    id: config.id,
    transport: config.transport,
    status: state.status,
    settled: state.settled,
    probeFailures: prober.failures,
    restarts: state.restarts,
    outstandingRequests: connection?.outstanding ?? 0,
    start: report.start,
  };
  if (report.cached) health.cached = true;
  if (state.startMs !== undefined) health.startMs = state.startMs;
  if (state.lastError) health.lastError = state.lastError;
  if (prober.lastProbeAt) health.lastProbeAt = prober.lastProbeAt;
  const { nextRetryAt } = report.reconnect;
  if (nextRetryAt) health.nextRetryAt = new Date(nextRetryAt).toISOString();
  if (connection?.era) health.era = connection.era;
  if (connection?.protocolVersion) health.protocolVersion = connection.protocolVersion;
  if (connection?.serverInfo) health.serverInfo = connection.serverInfo;
  if (connection?.pid !== undefined) health.pid = connection.pid;
  if (config.transport === 'stdio') health.stderrTail = report.stderrTail.snapshot();
  if (report.auth) health.auth = report.auth.summary();
  return health;
}
