/**
 * The sandbox a newly added stdio server gets (issue #25): every route that
 * adds a server from someone else's code (the registry, a bundle, a pasted
 * snippet, a client's import, the UI's form) sandboxes it by default, with
 * exactly the paths the user gave it as grants (a filesystem server's root, a
 * bundle's `directory` setting). Entries already saved are never touched; an
 * entry that says `sandbox` itself keeps its word; remote servers need none and
 * container runtimes (docker, podman) keep their own isolation. Where no
 * sandbox can run (macOS and Windows for now, Linux without bubblewrap), the
 * entry gets none: a server that could never start would make the add useless;
 * its card, health and `doctor` say plainly that it runs with the user's rights.
 */
import { sandboxSupportNow, type SandboxSupport } from '../../backends/process/sandbox/sandboxSupport.js';

/** The paths the user gave an entry: folders it may write to, files it may read. */
export interface SandboxGrants {
  read?: string[];
  write?: string[];
}

/** Commands that run a container: isolated by their runtime, not sandboxed again. */
const CONTAINER_RUNTIMES = new Set(['docker', 'podman', 'nerdctl']);

/** A path the config's `sandbox` lists accept: absolute or under `~/`, without `..`. */
export function grantablePath(path: string): boolean {
  const absolute = path.startsWith('/') || path === '~' || path.startsWith('~/');
  return absolute && !path.split('/').includes('..') && !path.includes('${');
}

/** Whether `entry` is a stdio server that a sandbox applies to. */
export function sandboxable(entry: Record<string, unknown>): boolean {
  const command = entry['command'];
  if (typeof command !== 'string' || entry['url'] !== undefined) return false;
  const name = command.split(/[\\/]/).pop() ?? command;
  return !CONTAINER_RUNTIMES.has(name.replace(/\.exe$/i, ''));
}

/** The grants without duplicates or paths a config cannot hold (trailing slashes dropped). */
function cleaned(paths: string[] | undefined): string[] {
  const kept = (paths ?? []).map((path) => (path.length > 1 ? path.replace(/\/+$/, '') : path)).filter(grantablePath);
  return [...new Set(kept)];
}

/**
 * `entry` with the default sandbox of a newly added server: `true`, or the
 * grants when there are some. Unchanged when it is not a sandboxable stdio
 * server, already says `sandbox`, or no sandbox can run here (`support`: this
 * machine's answer, asked only for a server that could get one).
 */
export function withDefaultSandbox(
  entry: Record<string, unknown>,
  grants: SandboxGrants = {},
  support: () => SandboxSupport = sandboxSupportNow,
): Record<string, unknown> {
  if (!sandboxable(entry) || entry['sandbox'] !== undefined) return entry;
  if (!support().available) return entry;
  const write = cleaned(grants.write);
  const read = cleaned(grants.read).filter((path) => !write.includes(path));
  if (read.length === 0 && write.length === 0) return { ...entry, sandbox: true };
  return {
    ...entry,
    sandbox: { ...(read.length > 0 ? { read } : {}), ...(write.length > 0 ? { write } : {}) },
  };
}
