/**
 * The default context of client operations for this user and machine: the
 * real home and platform, our state directory, the frontend token.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { resolveFrontendToken } from '../config/frontendToken.js';
import { defaultConfigDir, defaultStateDir } from '../config/paths.js';
import type { ClientsContext, ClientTokenProvider } from './install.js';
import type { Launcher } from './types.js';

/**
 * Every client gets the single frontend token (SWITCHBOARD_TOKEN, or the one
 * kept in `<config dir>/frontend-token`). Per-client tokens (issue #4) replace
 * this provider; nothing else changes.
 */
export function sharedTokenProvider(configDir: string, environment: NodeJS.ProcessEnv): ClientTokenProvider {
  return {
    async tokenFor() {
      return (await resolveFrontendToken(join(configDir, 'frontend-token'), environment)).token;
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
    tokens: sharedTokenProvider(defaultConfigDir(process.platform, env, home), env),
  };
}
