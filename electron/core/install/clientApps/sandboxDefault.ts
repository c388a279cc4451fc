/**
 * The sandbox a newly added stdio server gets (issue #25): every route that
 * adds a server from someone else's code (the registry, a bundle, a pasted
 * snippet, a client's import, the UI's form) sandboxes it by default, with
 * exactly the paths the user gave it as grants (a filesystem server's root, a
 * bundle's `directory` setting). Entries already saved are never touched; an
 * entry that says `sandbox` itself keeps its word; remote servers need none and
 * container runtimes (docker, podman) keep their own isolation.
 *
 * Where no sandbox can run (Linux without bubblewrap, or without socat for a
 * package runner's registry; Windows before srt's one-time setup; Node.js
 * older than 22.12 on macOS and Windows), the entry is still saved sandboxed,
 * so it is never run with the user's rights behind their back, and the add
 * says what to install or run (sandboxBlocker, refuseWithoutSandbox). Running
 * it unsandboxed is the user's explicit choice, recorded on that server as
 * `"sandbox": false` (`--unsandboxed`, or the UI's unticked "Run sandboxed").
 */
import { ErrorCode, ErrorFix, SwitchboardError } from '../../../../shared/errors.js';
import { findCommand, searchPath } from '../../backends/process/commandLookup.js';
import { packageRegistryHosts } from '../../backends/process/sandbox/sandboxedLaunch.js';
import { isContainerRuntime } from '../../backends/process/sandbox/sandboxPolicy.js';
import { sandboxSupportNow, type SandboxSupport } from '../../backends/process/sandbox/sandboxSupport.js';

/** The paths the user gave an entry: folders it may write to, files it may read. */
export interface SandboxGrants {
  read?: string[];
  write?: string[];
}

/** A path the config's `sandbox` lists accept: absolute or under `~/`, without `..`. */
export function grantablePath(path: string): boolean {
  const absolute = path.startsWith('/') || path === '~' || path.startsWith('~/');
  return absolute && !path.split('/').includes('..') && !path.includes('${');
}

/** Whether `entry` is a stdio server that a sandbox applies to. */
export function sandboxable(entry: Record<string, unknown>): boolean {
  const command = entry['command'];
  if (typeof command !== 'string' || entry['url'] !== undefined) return false;
  return !isContainerRuntime(command);
}

/** The grants without duplicates or paths a config cannot hold (trailing slashes dropped). */
function cleaned(paths: string[] | undefined): string[] {
  const kept = (paths ?? []).map((path) => (path.length > 1 ? path.replace(/\/+$/, '') : path)).filter(grantablePath);
  return [...new Set(kept)];
}

/** What the user chose for a new server. */
export interface SandboxChoice {
  /** Run it with the user's rights: recorded on it as `"sandbox": false`. */
  unsandboxed?: boolean;
}

/**
 * `entry` with the default sandbox of a newly added server: `true`, or the
 * grants when there are some (`false` when the user chose to run it
 * unsandboxed). Unchanged when it is not a sandboxable stdio server or
 * already says `sandbox`.
 */
export function withDefaultSandbox(
  entry: Record<string, unknown>,
  grants: SandboxGrants = {},
  choice: SandboxChoice = {},
): Record<string, unknown> {
  if (!sandboxable(entry) || entry['sandbox'] !== undefined) return entry;
  if (choice.unsandboxed) return { ...entry, sandbox: false };
  const write = cleaned(grants.write);
  const read = cleaned(grants.read).filter((path) => !write.includes(path));
  if (read.length === 0 && write.length === 0) return { ...entry, sandbox: true };
  return {
    ...entry,
    sandbox: { ...(read.length > 0 ? { read } : {}), ...(write.length > 0 ? { write } : {}) },
  };
}

/** Whether an entry's own `sandbox` turns the sandbox on. */
function sandboxOn(value: unknown): boolean {
  if (value === true) return true;
  return typeof value === 'object' && value !== null && (value as { enabled?: unknown }).enabled !== false;
}

/**
 * Why `entry`, saved sandboxed, cannot start on this machine, with what to
 * install or run; undefined when it can (or it is not sandboxed).
 */
export function sandboxBlocker(
  entry: Record<string, unknown>,
  environment: NodeJS.ProcessEnv = process.env,
  support: SandboxSupport = sandboxSupportNow(environment),
): string | undefined {
  if (!sandboxable(entry) || !sandboxOn(entry['sandbox'])) return undefined;
  if (!support.available) return support.reason;
  const sandbox = entry['sandbox'] as { network?: unknown };
  const network = typeof sandbox === 'object' ? sandbox.network : undefined;
  if (support.engine === 'srt' && network === 'all')
    return 'srt (the sandbox on macOS and Windows) cannot give one server the whole network: list the hosts it needs in sandbox.network';
  if (support.engine !== 'bubblewrap') return undefined;
  const env = Object.fromEntries(
    Object.entries(environment).filter((pair): pair is [string, string] => pair[1] !== undefined),
  );
  const hostList = Array.isArray(network) || packageRegistryHosts(entry['command'] as string, env).length > 0;
  if (hostList && !findCommand('socat', searchPath(env)))
    return 'its list of hosts (a package runner reaches its registry through one) needs socat, which is not installed (Debian/Ubuntu: apt install socat; Fedora: dnf install socat)';
  return undefined;
}

/**
 * Refuses to add `entry` as `id` when its sandbox cannot run here, saying
 * what to install or run, and how to choose to run it unsandboxed instead.
 */
export function refuseWithoutSandbox(
  id: string,
  entry: Record<string, unknown>,
  environment: NodeJS.ProcessEnv = process.env,
  support: SandboxSupport = sandboxSupportNow(environment),
): void {
  const reason = sandboxBlocker(entry, environment, support);
  if (reason === undefined) return;
  throw new SwitchboardError(
    ErrorCode.SandboxUnavailable,
    `"${id}" would run sandboxed, as every new server does, but ${reason}. Install that and add it again, or add it unsandboxed: it then runs with your rights, recorded on it as "sandbox": false`,
    { backend: id, reason, fix: ErrorFix.RunUnsandboxed },
  );
}
