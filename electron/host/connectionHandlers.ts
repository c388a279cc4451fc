/**
 * The local user's per-caller connections on the contract (the bridge speaks
 * for the main token's user, the `local` profile): list them, with a sign-in
 * link for each server not connected, and revoke one; for an administrator,
 * everyone's connections and revoking a person's. The core does the work
 * (ConnectionsService); params arrive validated by `dispatch`.
 */
import type { CoreHandlers } from '../../shared/contract.js';
import type { Switchboard } from '../core/api/index.js';
import { LOCAL_CLIENT } from '../core/platform/index.js';

type ConnectionMethods =
  'connections.list' | 'connections.revoke' | 'connections.everyone' | 'connections.revokeCaller';

export function connectionHandlers(core: Switchboard): Pick<CoreHandlers, ConnectionMethods> {
  const caller = { clientId: LOCAL_CLIENT };
  return {
    'connections.list': async () => core.connections.list(caller),
    'connections.revoke': async ({ server }) => core.connections.revoke(caller, server),
    // Administrators only: a signed-in person who is not one gets the me.* methods alone (bridge.ts).
    'connections.everyone': async () => core.connections.everyone(),
    'connections.revokeCaller': async ({ server, caller: key }) => core.connections.revokeCaller(server, key),
  };
}
