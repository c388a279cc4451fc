/**
 * The default context of client operations for this user and machine: the
 * real home and platform, our state directory, the frontend token.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { defaultConfigDir, defaultStateDir } from '../../platform/config/paths.js';
import { fileWriter, type ConfigStore } from '../../platform/config/configStore.js';
import { openConfigStore } from '../../platform/config/openConfigStore.js';
import type { PolicyService } from '../../api/services.js';
import type { ClientProfile } from '../../platform/config/policyConfig.js';
import { KeytarStore } from '../../platform/secrets/keytarStore.js';
import { ClientTokens } from '../../catalog/policy/clientTokens.js';
import { clientDefinition } from './definitions.js';
import type { ClientsContext, ClientTokenProvider } from './install.js';
import type { Launcher } from './clientAppTypes.js';

/** The one config store and token set a client operation writes to (the core's, in a running instance). */
export interface ProfileOwner {
  store: ConfigStore;
  tokens: ClientTokens;
  /** The running core's policy: a new profile is in force at once (else the file watcher brings it). */
  access?: Pick<PolicyService, 'update'>;
}

/**
 * The exposure `install` gives each client it knows, from what the client
 * itself does with many tools: Cursor uses only
 * its first 40 tools, Windsurf 100, VS Code Copilot 128; they get `auto` with
 * that cap, so they list everything while it fits and search beyond. Claude
 * Code and Codex take long lists (Claude Code defers them to its own tool
 * search): `all`. Others keep the policy's default.
 */
const INSTALL_EXPOSURE: Readonly<Record<string, Pick<ClientProfile, 'exposure' | 'maxTools'>>> = {
  cursor: { exposure: 'auto', maxTools: 40 },
  windsurf: { exposure: 'auto', maxTools: 100 },
  vscode: { exposure: 'auto', maxTools: 128 },
  'claude-code': { exposure: 'all' },
  codex: { exposure: 'all' },
};

/** Adds a client's install-time exposure to a raw profile, keeping whatever the user set. */
function applyInstallExposure(client: string, profile: Record<string, unknown>): void {
  const caps = INSTALL_EXPOSURE[client];
  if (!caps || profile['exposure'] !== undefined) return;
  profile['exposure'] = caps.exposure;
  if (caps.maxTools !== undefined && profile['maxTools'] === undefined) profile['maxTools'] = caps.maxTools;
}

/**
 * Each client gets its own profile (in the config's `policy.clients`, so the
 * running Switchboard picks it up) and its own token (derived, so installing
 * twice writes the same one; the running instance learns new tokens when it
 * first sees them). Needs no running instance.
 */
export function profileTokenProvider(owner: ProfileOwner): ClientTokenProvider {
  return {
    async tokenFor(client) {
      const definition = clientDefinition(client);
      const budget = definition && definition.toolNameBudget < 64 ? definition.toolNameBudget : undefined;
      // A patch of the file as it is now: written only when the profile is missing or lacks its name budget.
      const ensure = (clients: Record<string, Record<string, unknown>>): void => {
        const profile = clients[client] ?? { name: definition?.name ?? client };
        // The client's name budget (Claude Code: 55), unless the user set one.
        if (budget !== undefined && profile['maxNameLength'] === undefined) profile['maxNameLength'] = budget;
        // Its known tool cap, as `auto` exposure (INSTALL_EXPOSURE, below), unless the user chose one.
        applyInstallExposure(client, profile);
        clients[client] = profile;
      };
      if (owner.access) {
        await owner.access.update((policy) => ensure(policy.clients as Record<string, Record<string, unknown>>));
      } else {
        await owner.store.updateSection('policy', (policy) => {
          const clients = (policy['clients'] ?? {}) as Record<string, Record<string, unknown>>;
          ensure(clients);
          return { ...policy, clients };
        });
      }
      return (await owner.tokens.tokenFor(client)) ?? owner.tokens.issue(client);
    },
  };
}

/**
 * The store and tokens of a CLI process (no core runs in it): one of each,
 * built on first use. The token key comes from the OS keychain when there is one.
 */
export function cliProfileOwner(configPath: string, configDir: string, stateDir: string): ProfileOwner {
  const service = process.env['SWITCHBOARD_KEYCHAIN_SERVICE'];
  return {
    store: openConfigStore(configPath, { stateDir }),
    tokens: new ClientTokens(
      join(configDir, 'client-tokens.json'),
      fileWriter,
      new KeytarStore(service ? { service } : {}),
    ),
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
  /** The store and tokens to use (a running core's); default: this process's own, for the CLI. */
  owner?: ProfileOwner;
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
      options.owner ??
        cliProfileOwner(
          options.switchboardConfig ?? join(defaultConfigDir(process.platform, env, home), 'config.json'),
          defaultConfigDir(process.platform, env, home),
          defaultStateDir(process.platform, env, home),
        ),
    ),
  };
}
