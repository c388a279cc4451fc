/**
 * A supervisor's health report (without catalog counts, which the core adds):
 * what one backend's state, connection and OAuth say, and never a secret.
 */
import type { BackendHealth, BackendStatus } from '../../../shared/model/health.js';
import type { BackendAuth } from '../auth/backendAuth.js';
import type { BackendConfig } from '../config/schema.js';
import type { BackendConnection } from './backendConnection.js';
import type { LineTail } from './transports.js';

/** What the report is made of. */
export interface SupervisorState {
  config: BackendConfig;
  status: BackendStatus;
  settled: boolean;
  connection: BackendConnection | undefined;
  probeFailures: number;
  lastProbeAt: string | undefined;
  restarts: number;
  lastError: BackendHealth['lastError'];
  nextRetryAt: number | undefined;
  stderrTail: LineTail;
  auth: BackendAuth | undefined;
  /** Its published catalog is the cached one (no live listing yet). */
  cached: boolean;
  start: 'eager' | 'on-demand';
  startMs: number | undefined;
}

/** Builds the health of one backend. */
export function supervisorHealth(state: SupervisorState): Omit<BackendHealth, 'counts' | 'warnings'> {
  const { connection, config } = state;
  const health: Omit<BackendHealth, 'counts' | 'warnings'> = {
    id: config.id,
    transport: config.transport,
    status: state.status,
    settled: state.settled,
    probeFailures: state.probeFailures,
    restarts: state.restarts,
    outstandingRequests: connection?.outstanding ?? 0,
    start: state.start,
  };
  if (state.cached) health.cached = true;
  if (state.startMs !== undefined) health.startMs = state.startMs;
  if (state.lastError) health.lastError = state.lastError;
  if (state.lastProbeAt) health.lastProbeAt = state.lastProbeAt;
  if (state.nextRetryAt) health.nextRetryAt = new Date(state.nextRetryAt).toISOString();
  if (connection?.era) health.era = connection.era;
  if (connection?.protocolVersion) health.protocolVersion = connection.protocolVersion;
  if (connection?.serverInfo) health.serverInfo = connection.serverInfo;
  if (connection?.pid !== undefined) health.pid = connection.pid;
  if (config.transport === 'stdio') health.stderrTail = state.stderrTail.snapshot();
  if (state.auth) health.auth = state.auth.summary();
  return health;
}
