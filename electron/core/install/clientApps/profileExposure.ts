/**
 * A client profile's exposure (`policy.clients.<client>.exposure`, or the
 * policy's own `exposure` for `default`) as written in the config file: read
 * it, and set it through the config store, which a running Switchboard
 * applies as it would a hand edit.
 */
import { openConfigStore, readConfigFile } from '../../platform/config/openConfigStore.js';
import type { Exposure } from '../../../../shared/model/exposure.js';
import { configuredExposure } from '../../catalog/policy/policyEngine.js';
import { clientDefinition } from './definitions.js';

/** What the config says of one profile's exposure. */
export type ProfileExposure =
  | {
      found: true;
      /** The profile's own setting (for `default`, the policy's); undefined when it has none. */
      own: Exposure | undefined;
      /** What a profile without its own gets (the policy's exposure, `all` when unset). */
      fallback: Exposure;
    }
  /** No such profile, nor a known client app to make one for; `known` lists the profiles there are. */
  | { found: false; known: string[] };

/** `client` is a profile ID, a known client app without a profile yet, or `default`. */
export async function readProfileExposure(configPath: string, client: string): Promise<ProfileExposure> {
  const { config } = await readConfigFile(configPath);
  const policy = config.policy;
  const fallback = configuredExposure(policy, undefined);
  if (client === 'default') return { found: true, own: policy.exposure, fallback };
  const profile = policy.clients[client];
  if (!profile && !clientDefinition(client)) return { found: false, known: Object.keys(policy.clients) };
  return { found: true, own: profile?.exposure, fallback };
}

/** Sets the exposure (a known client app without a profile gets one, named after the app). */
export async function writeProfileExposure(configPath: string, client: string, mode: Exposure): Promise<void> {
  await openConfigStore(configPath).updateSection('policy', (section) => {
    if (client === 'default') return { ...section, exposure: mode };
    const clients = (section['clients'] ?? {}) as Record<string, Record<string, unknown>>;
    clients[client] = { ...(clients[client] ?? { name: clientDefinition(client)?.name ?? client }), exposure: mode };
    return { ...section, clients };
  });
}
