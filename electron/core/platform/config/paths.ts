/**
 * Default locations, per platform. The desktop app uses the same directory
 * (Electron's userData for an app named mcp-switchboard).
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

const APP_DIR = 'mcp-switchboard';

/** The user's config directory for Switchboard. */
export function defaultConfigDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32') return join(env['APPDATA'] ?? join(home, 'AppData', 'Roaming'), APP_DIR);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_DIR);
  return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), APP_DIR);
}

/** The default config file. */
export function defaultConfigPath(): string {
  return join(defaultConfigDir(), 'config.json');
}

/**
 * The user's state directory for Switchboard: runtime files (the running
 * instance's port and pid), client-config backups and the log of a headless
 * instance started by `connect`. Not the config directory, so a synced or
 * version-controlled config folder never picks them up.
 */
export function defaultStateDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32') return join(env['LOCALAPPDATA'] ?? join(home, 'AppData', 'Local'), APP_DIR);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_DIR);
  return join(env['XDG_STATE_HOME'] || join(home, '.local', 'state'), APP_DIR);
}

/** The audit log's directory (catalog/policy/auditLog.ts): under the state directory. */
export function defaultAuditDir(): string {
  return join(defaultStateDir(), 'audit');
}
