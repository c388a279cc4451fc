/**
 * The default context of client operations for this user and machine: the
 * real home and platform, our state directory, the frontend token.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { defaultConfigDir, defaultStateDir } from '../config/paths.js';
import { ConfigStore } from '../config/configStore.js';
import { ClientTokens } from '../policy/clientTokens.js';
import { applyInstallExposure, INSTALL_EXPOSURE } from '../exposure/clientCaps.js';
import { clientDefinition } from './definitions.js';
import type { ClientsContext, ClientTokenProvider } from './install.js';
import type { Launcher } from './types.js';

/**
 * Each client gets its own profile (in the config's `policy.clients`, so the
 * running Switchboard picks it up) and its own token (derived, so installing
 * twice writes the same one; the running instance learns new tokens when it
 * first sees them). Needs no running instance.
 */
export function profileTokenProvider(configPath: string, configDir: string): ClientTokenProvider {
  return {
    async tokenFor(client) {
      const store = new ConfigStore(configPath);
      const { config } = await store.load();
      const definition = clientDefinition(client);
      const budget = definition && definition.toolNameBudget < 64 ? definition.toolNameBudget : undefined;
      const existing = config.policy.clients[client];
      const capped = INSTALL_EXPOSURE[client] !== undefined && existing?.exposure === undefined;
      if (!existing || capped || (budget !== undefined && existing.maxNameLength === undefined)) {
        await store.updateSection('policy', (policy) => {
          const clients = (policy['clients'] ?? {}) as Record<string, Record<string, unknown>>;
          const profile = clients[client] ?? { name: definition?.name ?? client };
          // The client's name budget (Claude Code: 55), unless the user set one.
          if (budget !== undefined && profile['maxNameLength'] === undefined) profile['maxNameLength'] = budget;
          // Its known tool cap, as `auto` exposure (exposure/clientCaps.ts), unless the user chose one.
          applyInstallExposure(client, profile);
          clients[client] = profile;
          return { ...policy, clients };
        });
      }
      const tokens = new ClientTokens(join(configDir, 'client-tokens.json'));
      await tokens.load();
      return (await tokens.tokenFor(client)) ?? tokens.issue(client);
    },
  };
}

/** The endpoint URL entries point at. */
export function endpointUrl(port: number, host = '127.0.0.1'): string {
  return `http://${host}:${port}/mcp`;
}

/** Options of {@link defaultClientsContext}. */
export interface DefaultContextOptions {
  port: number;
  launcher: Launcher;
  /** A non-default Switchboard config (passed to `connect` entries). */
  configPath?: string;
  /** The Switchboard config that holds the client profiles (default: the default config). */
  switchboardConfig?: string;
  environment?: NodeJS.ProcessEnv;
}

/** The context for the current user. */
export function defaultClientsContext(options: DefaultContextOptions): ClientsContext {
  const env = options.environment ?? process.env;
  const home = homedir();
  return {
    platform: { platform: process.platform, env, home },
    stateDir: defaultStateDir(process.platform, env, home),
    url: endpointUrl(options.port),
    launcher: options.launcher,
    ...(options.configPath ? { configPath: options.configPath } : {}),
    tokens: profileTokenProvider(
      options.switchboardConfig ?? join(defaultConfigDir(process.platform, env, home), 'config.json'),
      defaultConfigDir(process.platform, env, home),
    ),
  };
}
