/**
 * A supervisor's new connection to its backend: the platform pieces from the
 * core, and every report wired back to the supervisor with the connection it
 * concerns (a report of a replaced connection is ignored there).
 */
import type { BackendConfig } from '../../platform/config/schema.js';
import { BackendConnection } from '../connection/backendConnection.js';
import type { SupervisorAuthorization } from './supervisorAuthorization.js';
import type { SupervisorHost } from './supervisorHost.js';
import type { SwitchboardError } from '../../../../shared/errors.js';
import type { LineTail } from '../transport/transports.js';

/** Where a connection's reports go, each with the connection. */
export interface ConnectionReports {
  closed(connection: BackendConnection, error: SwitchboardError): void;
  listChanged(connection: BackendConnection): void;
}

/** Makes the connection of one start attempt (not connected yet). */
export function newConnection(
  config: BackendConfig,
  host: SupervisorHost,
  stderrTail: LineTail,
  authorization: SupervisorAuthorization,
  reports: ConnectionReports,
): BackendConnection {
  const authProvider = authorization.attach(() => authorization.connectionLost(connection));
  const connection: BackendConnection = new BackendConnection({
    config,
    proxy: host.proxyOptions(),
    environment: host.deps.environment,
    secrets: host.secrets,
    clientInfo: host.deps.clientInfo,
    stderrTail,
    onUnexpectedClose: (error) => reports.closed(connection, error),
    onListChanged: () => reports.listChanged(connection),
    onLog: (params) => host.log(config.id, params),
    onResourceUpdated: (uri) => host.resourceUpdated(config.id, uri),
    onTaskStatus: (params) => host.taskStatus?.(config.id, params),
    authProvider,
    onAuthorizationProblem: (problem) => authorization.problem(connection, problem),
  });
  return connection;
}
