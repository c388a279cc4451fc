/**
 * Vitest setup file (runs in every worker before each test file): points the
 * XDG directories at the run's temporary folder (isolatedDirs.global.ts), so
 * code that falls back to the default config and state directories
 * (electron/core/platform/config/paths.ts), and every CLI or `serve` a test spawns
 * with this environment, stays out of the user's real ones. A test that sets
 * its own directories (isolatedUser.ts, bridgeHarness.ts) overrides these.
 * HOME is left alone: the npx cache and the keychain (keyring-run.mjs runs its
 * own throwaway keyring over D-Bus) live under it.
 */
import { join } from 'node:path';
import { inject } from 'vitest';

const root = inject('isolatedDirsRoot');
process.env['XDG_CONFIG_HOME'] = join(root, 'config');
process.env['XDG_STATE_HOME'] = join(root, 'state');
process.env['XDG_DATA_HOME'] = join(root, 'data');
