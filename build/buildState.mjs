/**
 * Whether the build in dist/ is up to date with its sources (see
 * ensure-built.mjs): an output missing, or older than any source, needs a build.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What the build reads. */
export const SOURCES = ['electron', 'shared', 'renderer', 'build', 'package.json', 'package-lock.json'];
/** What it writes (one file per build step). */
export const OUTPUTS = [
  'dist/electron/cli/main.js',
  'dist/renderer/index.html',
  'dist/desktop/main.js',
  'dist/cli/main.js',
  'dist/cli/help.js',
];
const SKIP = new Set(['node_modules', 'icons', '.git']);

/** Newest modification time under `path` (a file or a folder), 0 when absent. */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) {
    if (!SKIP.has(entry)) max = Math.max(max, newest(join(path, entry)));
  }
  return max;
}

/** Why a build of `root` is needed, or undefined when the outputs are newer than every source. */
export function staleness(root) {
  let oldestOutput = Infinity;
  for (const output of OUTPUTS) {
    const time = newest(join(root, output));
    if (time === 0) return `${output} is missing`;
    oldestOutput = Math.min(oldestOutput, time);
  }
  const source = Math.max(...SOURCES.map((path) => newest(join(root, path))));
  return source > oldestOutput ? 'sources changed since the last build' : undefined;
}
