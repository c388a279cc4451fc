/**
 * Which exposure a client gets. `auto` resolves to `all` while the client's
 * full view fits its `maxTools` and `maxToolTokens`, and to `search` beyond:
 * Cursor uses only its first 40 tools, Windsurf 100, VS Code 128, and every
 * listed tool costs context on every turn.
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { Exposure, ExposureInForce } from '../../../../shared/model/exposure.js';
import type { ClientProfile, Policy } from '../../platform/config/policyConfig.js';
import { toolListTokens } from '../toolTokens.js';

/** The exposure a client is set to (its profile's, else the policy's, else `all`). */
export function configuredExposure(policy: Policy, profile: ClientProfile | undefined): Exposure {
  return profile?.exposure ?? policy.exposure ?? 'all';
}

/** The exposure in force for a client whose full (uncapped) view is `tools`. */
export function resolveExposure(
  policy: Policy,
  profile: ClientProfile | undefined,
  tools: readonly Tool[],
): ExposureInForce {
  const setting = configuredExposure(policy, profile);
  if (setting !== 'auto') return setting;
  if (profile?.maxTools !== undefined && tools.length > profile.maxTools) return 'search';
  if (profile?.maxToolTokens !== undefined && toolListTokens(tools) > profile.maxToolTokens) return 'search';
  return 'all';
}
