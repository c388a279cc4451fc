/**
 * The contract's view of search mode: each profile's exposure as set and in
 * force, and what its tools/list costs (so the Clients screen can say "Cursor
 * sees 40 tools, ~11k tokens; in search mode ~350"); and setting it.
 */
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { ProfileToolsView } from '../../shared/model/views.js';
import { toolListTokens } from '../core/exposure/toolTokens.js';
import type { SwitchboardCore } from '../core/switchboard.js';
import { requireString } from './dispatch.js';

const MODES = ['all', 'search', 'auto'];

/** A profile's exposure and the cost of its tools/list. */
export function profileToolsView(core: SwitchboardCore, id: string): ProfileToolsView {
  const listed = core.exposure.list(id);
  const exposure = core.access.policy.clients[id]?.exposure;
  return {
    ...(exposure !== undefined ? { exposure } : {}),
    inForce: core.exposure.mode(id),
    listed: listed.length,
    tokens: toolListTokens(listed),
    reachable: core.exposure.reachable(id),
  };
}

/** Handlers of the exposure methods. */
export function exposureHandlers(core: SwitchboardCore): Pick<CoreHandlers, 'profiles.setExposure'> {
  return {
    'profiles.setExposure': async (params) => {
      const id = requireString(params, 'id');
      const { exposure } = params;
      if (exposure !== null && !MODES.includes(exposure)) {
        throw new SwitchboardError(
          ErrorCode.InvalidParams,
          `exposure must be all, search, auto or null, not ${JSON.stringify(exposure)}`,
        );
      }
      await core.policy.setExposure(id, exposure);
    },
  };
}
