/**
 * The contract's view of search mode: each profile's exposure as set and in
 * force, and what its tools/list costs (so the Clients screen can say "Cursor
 * sees 40 tools, ~11k tokens; in search mode ~350"); and setting it.
 */
import type { CoreHandlers } from '../../shared/contract.js';
import type { ProfileToolsView } from '../../shared/model/views.js';
import { toolListTokens } from '../core/catalog/index.js';
import { LOCAL_CLIENT } from '../core/platform/index.js';
import type { Switchboard } from '../core/api/index.js';

/** A profile's exposure and the cost of its tools/list. */
export function profileToolsView(core: Switchboard, id: string): ProfileToolsView {
  const listed = core.exposure.list(id);
  const policy = core.policy.current;
  // The main token has no profile: it gets the policy's default.
  const exposure = id === LOCAL_CLIENT ? policy.exposure : policy.clients[id]?.exposure;
  return {
    ...(exposure !== undefined ? { exposure } : {}),
    inForce: core.exposure.mode(id),
    listed: listed.length,
    tokens: toolListTokens(listed),
    reachable: core.exposure.reachable(id),
  };
}

/** Handlers of the exposure methods. */
export function exposureHandlers(core: Switchboard): Pick<CoreHandlers, 'profiles.setExposure'> {
  return {
    'profiles.setExposure': async ({ id, exposure }) => core.policy.setExposure(id, exposure),
  };
}
