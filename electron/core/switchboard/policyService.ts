/**
 * The core's policy service (coreApi.ts `PolicyService`): the policy in force,
 * its decisions and changes (AccessControl), and the review of changed tool
 * definitions (PinStore), whose approval shows the tool again.
 */
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import type { PolicyService } from '../api/services.js';
import type { CoreEvents } from '../api/events.js';
import type { TypedEmitter } from '../platform/typedEmitter.js';
import type { AccessControl } from '../catalog/policy/accessControl.js';
import type { Catalog } from '../catalog/catalog.js';
import type { PinStore } from '../catalog/policy/pinStore.js';
import { CorePolicyService } from '../catalog/policy/policyService.js';

/** The policy service over the core's access control and pins (none: pinning is off). */
export function createPolicyService(
  access: AccessControl,
  pins: () => PinStore | undefined,
  events: TypedEmitter<CoreEvents>,
  reads: { catalog(): Catalog; backendConfigs(): readonly { id: string }[] },
): PolicyService {
  const pinChanges = () => pins()?.changes() ?? [];
  const changes = new CorePolicyService({ access, pinChanges, ...reads });
  return {
    get current() {
      return access.policy;
    },
    rule: (client, kind, backendId, original) => access.engine.rule(client, kind, backendId, original),
    view: (client, catalog) => access.view(client, catalog),
    update: (mutate) => access.update(mutate),
    authorizationView: (profile) => changes.authorizationView(profile),
    setRule: (backend, kind, original, rule, client) => changes.setRule(backend, kind, original, rule, client),
    setRules: (rules, profile) => changes.setRules(rules, profile),
    setBackend: (settings) => changes.setBackend(settings),
    setExposure: (client, exposure) => changes.setExposure(client, exposure),
    pinChanges,
    async approvePin(backendId, tool) {
      const store = pins();
      if (!store) throw new SwitchboardError(ErrorCode.UnknownChange, 'tool pinning is not enabled');
      await store.approve(backendId, tool);
      access.engine.invalidate();
      events.emit('catalogChanged', { tools: true, prompts: false, resources: false });
    },
  };
}
