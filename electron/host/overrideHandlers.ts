/**
 * The contract's tool overrides: one item's override at a level with the
 * preview of what the model sees and its token cost (the catalog screen's
 * editor), and saving one through the core, which writes the config owner.
 */
import type { CoreHandlers } from '../../shared/contract.js';
import type { Switchboard } from '../core/api/index.js';

/** A profile of `*` (or none) is the server's own level. */
const level = (profile: string | undefined): string | undefined => (profile === '*' ? undefined : profile);

/** Handlers of the overrides methods. */
export function overrideHandlers(core: Switchboard): Pick<CoreHandlers, 'overrides.get' | 'overrides.set'> {
  return {
    'overrides.get': async ({ draft, profile, ...target }) =>
      core.overrides.view({ ...target, profile: level(profile) }, draft),
    'overrides.set': ({ override, profile, ...target }) =>
      core.overrides.set({ ...target, profile: level(profile) }, override),
  };
}
