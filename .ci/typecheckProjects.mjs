// The projects CI's check phase type-checks: those of `npm run typecheck` (read from package.json, so the
// two lists cannot drift), one a line, less any project whose files and options are those of
// build/tsconfig.build.json, which the build in `npm ci` (the `prepare` script) has just compiled, and so
// type-checked: a type error fails it, and npm ci with it. `tsc -p electron` is that project today
// (about 24 s of one core on CI's machine); a change to either tsconfig makes the two differ and CI
// checks it again.
//   node .ci/typecheckProjects.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const ROOT = resolve(dirname(new URL(import.meta.url).pathname), '..');
const BUILD = 'build/tsconfig.build.json';
/** Options that only say where (or whether) the build writes. */
const OUTPUT_ONLY = new Set(['rootDir', 'outDir', 'noEmit']);

const script = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).scripts.typecheck;
const projects = script.split('&&').map((part) => {
  const match = /^tsc -p (\S+)$/.exec(part.trim());
  if (!match)
    throw new Error(`typecheckProjects: "${part.trim()}" in package.json's typecheck is not "tsc -p <project>"`);
  return match[1];
});

/** A project's resolved options (less where it writes) and its files (absolute, sorted), as tsc sees them. */
function resolved(project) {
  const shown = JSON.parse(
    execFileSync(process.execPath, [resolve(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project, '--showConfig'], {
      cwd: ROOT,
      encoding: 'utf8',
    }),
  );
  const base = resolve(ROOT, project.endsWith('.json') ? dirname(project) : project);
  const options = Object.fromEntries(Object.entries(shown.compilerOptions).filter(([key]) => !OUTPUT_ONLY.has(key)));
  const files = shown.files.map((file) => resolve(base, file)).sort();
  return JSON.stringify({ options, files });
}

const build = resolved(BUILD);
for (const project of projects) if (resolved(project) !== build) console.log(project);
