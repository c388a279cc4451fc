#!/usr/bin/env node
/**
 * `npm run serve` (and `npm start`) build only when needed: when an output is
 * missing or older than any source it is built from. `npm install` in a
 * checkout has just built (the `prepare` script), so the first run after it
 * starts at once instead of building again.
 *
 * Usage: node build/ensure-built.mjs  (exit 0 when the build is up to date or was rebuilt)
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleness } from './buildState.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reason = staleness(root);
if (reason) {
  process.stderr.write(`building (${reason})...\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(result.status ?? 1);
}
