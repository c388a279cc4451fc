/**
 * The core's policy service (coreApi.ts `PolicyService`): the policy in force,
 * its decisions and changes (AccessControl), and the review of changed tool
 * definitions (PinStore), whose approval shows the tool again.
 */
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { PolicyService } from './coreApi.js';
import type { CoreEvents } from './coreEvents.js';
import type { TypedEmitter } from './events.js';
import type { AccessControl } from './policy/accessControl.js';
import type { PinStore } from './policy/pinStore.js';

/** The policy service over the core's access control and pins (none: pinning is off). */
export function createPolicyService(
  access: AccessControl,
  pins: () => PinStore | undefined,
  events: TypedEmitter<CoreEvents>,
): PolicyService {
  return {
    get current() {
      return access.policy;
    },
    rule: (client, kind, backendId, original) => access.engine.rule(client, kind, backendId, original),
    view: (client, catalog) => access.view(client, catalog),
    update: (mutate) => access.update(mutate),
    setRule: (backend, kind, original, rule, client) => access.setRule(backend, kind, original, rule, client),
    pinChanges: () => pins()?.changes() ?? [],
    async approvePin(backendId, tool) {
      const store = pins();
      if (!store) throw new SwitchboardError(ErrorCode.UnknownChange, 'tool pinning is not enabled');
      await store.approve(backendId, tool);
      access.engine.invalidate();
      events.emit('catalogChanged', { tools: true, prompts: false, resources: false });
    },
  };
}
