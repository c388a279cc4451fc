/**
 * What a server's launch points at that its sandbox would hide, said before
 * the sandbox is turned on for it: an environment variable holding a path
 * (`MEMORY_FILE_PATH=/home/u/notes.json`) outside every grant, or an argument
 * naming a path that is not there yet (a file the server will create, which
 * the default read-only view of its arguments cannot show). Each comes with
 * the grant that would let it through (a write: a server given a path keeps
 * its state there). The system's folders, the server's private home and its
 * temp folder need nothing. Pure, apart from asking whether a path exists.
 */
import { existsSync } from 'node:fs';
import type { SandboxGrant, SandboxPathWarning } from '../../../../../shared/model/sandboxViews.js';
import { expandHome, SYSTEM_PATHS } from './sandboxPolicy.js';

/** A value that is one path and nothing else (not a list, not a URL). */
const ONE_PATH = /^(?:\/|~\/)[^:\s]*$/;

/** Variables every process has, whose paths the sandbox sets itself. */
const OWN_VARIABLES = new Set(['HOME', 'TMPDIR', 'TMP', 'TEMP', 'PWD', 'OLDPWD', 'SHELL', 'PATH']);

function under(path: string, folder: string): boolean {
  const base = folder.endsWith('/') ? folder.slice(0, -1) : folder;
  return path === base || path.startsWith(`${base}/`);
}

/** What the launch's env and args point at outside `granted` (paths as given; `~/` under `home`). */
export function outsidePaths(
  launch: { args: readonly string[]; env: Readonly<Record<string, unknown>> },
  granted: { read: readonly string[]; write: readonly string[] },
  home: string,
): SandboxPathWarning[] {
  const allowed = [...granted.read, ...granted.write].map((path) => expandHome(path, home));
  const covered = (path: string): boolean =>
    SYSTEM_PATHS.some((system) => under(path, system)) || allowed.some((folder) => under(path, folder));
  const warnings: SandboxPathWarning[] = [];
  const grant = (path: string): SandboxGrant => ({ kind: 'write', target: path });
  for (const [name, value] of Object.entries(launch.env)) {
    if (typeof value !== 'string' || OWN_VARIABLES.has(name) || !ONE_PATH.test(value)) continue;
    if (covered(expandHome(value, home))) continue;
    warnings.push({ source: 'env', name, path: value, grant: grant(value) });
  }
  launch.args.forEach((arg, at) => {
    if (!ONE_PATH.test(arg)) return;
    const path = expandHome(arg, home);
    if (existsSync(path) || covered(path)) return;
    warnings.push({ source: 'arg', name: `args[${at}]`, path: arg, grant: grant(arg) });
  });
  return warnings;
}
