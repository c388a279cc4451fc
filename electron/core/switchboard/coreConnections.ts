/**
 * The core's per-caller connections (api/services.ts ConnectionsService):
 * the per-caller backends in force, each caller's tokens and sign-in links
 * (platform/auth/callerCredentials.ts) and the callers' upstream connections
 * in the supervisors (backends/supervisor/callerConnections.ts). A sign-in
 * that completes wakes a backend waiting for its first signed-in caller; a
 * revocation closes that caller's connection too.
 */
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import type { ConnectionsService } from '../api/services.js';
import type { BackendPool } from '../backends/supervisor/backendPool.js';
import type { CallerCredentials } from '../platform/auth/callerCredentials.js';
import { isPerCaller, type BackendConfig } from '../platform/config/schema.js';
import { callerKey } from '../catalog/policy/callerIdentity.js';

/** What the connections service reads of the core. */
export interface CoreConnectionsHost {
  credentials: CallerCredentials;
  pool: BackendPool;
  backends(): readonly BackendConfig[];
}

/** Builds the service, and wakes waiting backends on each completed sign-in. */
export function createConnectionsService(host: CoreConnectionsHost): ConnectionsService {
  const { credentials, pool } = host;
  const perCaller = (): string[] =>
    host
      .backends()
      .filter(isPerCaller)
      .map((backend) => backend.id);
  const requirePerCaller = (server: string): void => {
    if (!perCaller().includes(server)) {
      throw new SwitchboardError(
        ErrorCode.UnknownBackend,
        `"${server}" is not a server with per-caller credentials (see \`mcp-switchboard connections\`)`,
        { backend: server },
      );
    }
  };
  /** Forgets one caller's tokens and closes their upstream connection (the next call asks them to sign in). */
  const revokeKey = async (server: string, caller: string): Promise<{ revoked: boolean }> => {
    requirePerCaller(server);
    const revoked = await credentials.revoke(server, caller);
    const reason = new SwitchboardError(ErrorCode.AuthorizationRequired, `the connection to "${server}" was revoked`, {
      backend: server,
    });
    await pool.get(server)?.callers.close(caller, reason);
    return { revoked };
  };
  credentials.onSignedIn((backend) => pool.get(backend)?.callerSignedIn());
  return {
    served: (origin) => credentials.signIn.served(origin),
    list: (caller) => {
      const person = caller.principal && (caller.principal.email ?? caller.principal.subject);
      return credentials.connections(callerKey(caller), perCaller(), person);
    },
    revoke: (identity, server) => revokeKey(server, callerKey(identity)),
    everyone: () => credentials.everyone(perCaller()),
    revokeCaller: (server, caller) => revokeKey(server, caller),
    start(server, link) {
      requirePerCaller(server);
      return credentials.signIn.start(server, link);
    },
    async callback(query) {
      const { backend } = await credentials.callback(query);
      return { server: backend };
    },
  };
}
