/**
 * `mcp-switchboard exposure <client|default> [all|search|search+load|auto]`: shows or sets
 * how a client gets its tools (`policy.clients.<client>.exposure`, or the
 * policy's own `exposure` for `default`). Written to the config file, which a
 * running Switchboard applies as it would a hand edit.
 */
import { ConfigStore } from '../config/configStore.js';
import { clientDefinition } from '../clients/definitions.js';
import { EXPOSURE_CHOICES, EXPOSURES, isExposure } from '../../../shared/model/exposure.js';

const USAGE = `usage: mcp-switchboard exposure <client|default> [${EXPOSURES.join('|')}]\n`;

/** What the command needs from the CLI. */
export interface ExposureCommandContext {
  configPath: string;
  out: (text: string) => void;
  err: (text: string) => void;
}

/** Runs the command; resolves to the exit code (2 for a usage error). */
export async function exposureCommand(
  context: ExposureCommandContext,
  client: string | undefined,
  mode: string | undefined,
): Promise<0 | 1 | 2> {
  if (!client) {
    context.err(USAGE);
    return 2;
  }
  if (mode !== undefined && !isExposure(mode)) {
    context.err(`mcp-switchboard: exposure must be ${EXPOSURE_CHOICES}, not "${mode}"\n${USAGE}`);
    return 2;
  }
  const store = new ConfigStore(context.configPath);
  const { config } = await store.load();
  const policy = config.policy;
  const isDefault = client === 'default';
  const profile = isDefault ? undefined : policy.clients[client];
  const definition = clientDefinition(client);
  if (!isDefault && !profile && !definition) {
    context.err(
      `mcp-switchboard: no client profile "${client}" (known: ${Object.keys(policy.clients).join(', ') || 'none'})\n`,
    );
    return 1;
  }
  const current =
    (isDefault ? policy.exposure : profile?.exposure) ?? (isDefault ? 'all' : `default (${policy.exposure ?? 'all'})`);
  if (mode === undefined) {
    context.out(`${client}: ${current}\n`);
    return 0;
  }
  await store.updateSection('policy', (section) => {
    if (isDefault) return { ...section, exposure: mode };
    const clients = (section['clients'] ?? {}) as Record<string, Record<string, unknown>>;
    clients[client] = { ...(clients[client] ?? { name: definition?.name ?? client }), exposure: mode };
    return { ...section, clients };
  });
  context.out(`${client}: ${mode} (was ${current})\n`);
  return 0;
}
