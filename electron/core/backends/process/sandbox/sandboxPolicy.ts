/**
 * What one sandboxed stdio server may see, as mounts: the decision of what a
 * server needs, kept apart from how a sandbox engine enforces it
 * (bubblewrapArgs.ts). The defaults let ordinary servers work without a grant:
 * the system's files and runtimes read-only, the command's own install folder,
 * the package caches npx and uvx run from, the scripts and folders its
 * arguments name (read-only), and a private, writable home and temp folder
 * under Switchboard's state directory. The user's real home is not there:
 * ~/.ssh, ~/.aws and browser profiles are simply absent. What the user grants
 * (`sandbox.read`, `sandbox.write`) is added on top.
 */
import { existsSync, lstatSync, mkdirSync, readlinkSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { SandboxNetwork, SandboxSetting } from '../../../platform/config/schema.js';

/**
 * The strict sandbox a quarantined server runs under while it is reviewed
 * (never approved, or its launch line changed since), whatever its own
 * `sandbox` setting: the defaults only (the system's files, its command's
 * folder and runtime, the scripts its arguments name, all read-only), a
 * private empty home and temp folder as the only places it may write, no
 * grant of the user's, and no network (a package runner may still reach the
 * registry of the package its reviewed launch line names: sandboxedLaunch.ts).
 */
export const STRICT_SANDBOX: Readonly<SandboxSetting> = Object.freeze({
  enabled: true,
  read: [],
  write: [],
  network: 'none',
});

/** Commands that run a container: contained by their runtime, never wrapped in a sandbox of ours. */
const CONTAINER_RUNTIMES = new Set(['docker', 'podman', 'nerdctl']);

/** Whether `command` (a name or a path, `.exe` on Windows) is a container runtime. */
export function isContainerRuntime(command: string): boolean {
  const name = command.split(/[\\/]/).pop() ?? command;
  return CONTAINER_RUNTIMES.has(name.replace(/\.exe$/i, '').toLowerCase());
}

/** One folder or file made visible inside the sandbox. */
export interface SandboxMount {
  /** The path on the host. */
  source: string;
  /** Where it appears inside (usually the same path). */
  target: string;
  /** `ro`: read-only; `rw`: writable. */
  mode: 'ro' | 'rw';
  /** A default that may be missing on this machine (mounted only if present). */
  optional: boolean;
}

/** A symbolic link recreated inside (merged-/usr systems: /bin → usr/bin). */
export interface SandboxLink {
  target: string;
  path: string;
}

/** Everything an engine needs to run one server sandboxed. */
export interface SandboxPolicy {
  backendId: string;
  mounts: SandboxMount[];
  links: SandboxLink[];
  /** The private home (mounted at the real home's path) and temp folder on the host. */
  privateHome: string;
  privateTmp: string;
  /** The home path the server sees (the real one's path, holding the private folder). */
  home: string;
  /** Where the server starts (its `cwd`, else its home). */
  cwd: string;
  network: SandboxNetwork;
  /**
   * With a list of hosts: the host path of the Unix socket of its filtering
   * proxy (hostFilterProxy.ts), the sandbox's only way out.
   */
  proxySocket?: string;
}

/** The system's read-only folders (those present are mounted). */
export const SYSTEM_PATHS = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc',
  '/opt',
  '/nix/store',
  '/run/systemd/resolve',
];

/**
 * Package folders under the home folder that servers run from, read-only:
 * Python interpreters uv installed, and pipx's installs. The download caches
 * (npx's ~/.npm, uv's ~/.cache/uv) are not: a package runner writes to its
 * cache, so a sandboxed one keeps its own in its private home (and fetches
 * its package from its registry: sandboxedLaunch.ts packageRegistryHosts), where nothing it
 * writes reaches another server.
 */
const HOME_CACHES = ['.local/share/uv', '.local/pipx'];

/** What the policy is computed from. */
export interface SandboxPolicyInput {
  backendId: string;
  /** The command as resolved on PATH (absent: not found; the spawn then says so). */
  resolvedCommand: string | undefined;
  args: string[];
  cwd: string | undefined;
  setting: SandboxSetting;
  /** The user's home folder. */
  home: string;
  /** Switchboard's state directory (the private folders live under `sandboxes/<id>/`). */
  stateDir: string;
  /** Extra folders on every server's PATH (`proxy.extraPath`), read-only. */
  extraPath: string[];
}

/** `~/x` as a path under `home`. */
export function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return path;
}

function isUnder(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * The folder a command is installed in: two levels above its binary
 * (`~/.nvm/versions/node/v22/bin/node` → `~/.nvm/versions/node/v22`), so a
 * runtime under a version manager finds its own libraries. System commands
 * need nothing more.
 */
function installFolderOf(command: string): string | undefined {
  const real = realOrSelf(command);
  if (SYSTEM_PATHS.some((system) => isUnder(real, system))) return undefined;
  return dirname(dirname(real));
}

/** The folder holding a command as PATH found it (not its link's target), unless it is a system folder. */
function commandFolderOf(command: string): string | undefined {
  if (!isAbsolute(command)) return undefined;
  const folder = dirname(command);
  return SYSTEM_PATHS.some((system) => isUnder(folder, system)) ? undefined : folder;
}

/**
 * The folder an argument names, read-only: a script's project (for a
 * package's script, the folder holding the outermost node_modules, where its
 * hoisted dependencies are; else the nearest folder above it with a
 * package.json, pyproject.toml or node_modules, so its imports resolve), a
 * folder itself, or nothing for anything else.
 */
function argumentFolder(arg: string): string | undefined {
  if (!isAbsolute(arg) || !existsSync(arg)) return undefined;
  const real = realOrSelf(arg);
  if (statSync(real).isDirectory()) return real;
  const inPackages = real.indexOf(`${sep}node_modules${sep}`);
  if (inPackages > 0) return real.slice(0, inPackages);
  let folder = dirname(real);
  for (let at = folder; at !== dirname(at); at = dirname(at)) {
    if (['package.json', 'pyproject.toml', 'node_modules'].some((marker) => existsSync(join(at, marker)))) {
      folder = at;
      break;
    }
  }
  return folder;
}

/**
 * What a `write` grant mounts: a folder as it is; a file, or a path not there
 * yet, by its folder. A server saves a file by writing a sibling and renaming
 * it over (server-memory does), which a mount of the file alone refuses
 * (EBUSY), and bubblewrap cannot mount a path that does not exist yet (a
 * memory file before the first save). A file directly in the home or in a
 * top-level folder (`/tmp/x.json`) keeps the file alone: its folder would
 * bring the whole real home or /tmp back into view (it is made, empty, when
 * missing; a server that saves it by renaming a sibling over it cannot: give
 * such a file a folder of its own).
 */
function writableMountOf(path: string, home: string): string {
  try {
    if (statSync(path).isDirectory()) return path;
  } catch {
    // not there yet: the server creates it
  }
  const folder = dirname(path);
  const topLevel = dirname(dirname(folder)) === dirname(folder);
  if (!topLevel && folder !== home) return folder;
  // Alone, it must be there to be mounted: an empty one is made (its folder exists, or the grant fails to mount).
  if (!existsSync(path) && existsSync(folder)) writeFileSync(path, '', { mode: 0o600, flag: 'a' });
  return path;
}

/** Where a project's node_modules really is, when it is a link to another folder. */
function linkedPackages(folder: string): string | undefined {
  const packages = join(folder, 'node_modules');
  try {
    if (!lstatSync(packages).isSymbolicLink()) return undefined;
  } catch {
    return undefined;
  }
  const real = realOrSelf(packages);
  return real === packages ? undefined : real;
}

/** System folders that are links on this machine (merged /usr) become links, not second mounts. */
function systemMountsAndLinks(): { mounts: SandboxMount[]; links: SandboxLink[] } {
  const mounts: SandboxMount[] = [];
  const links: SandboxLink[] = [];
  for (const path of SYSTEM_PATHS) {
    let link: string | undefined;
    try {
      if (lstatSync(path).isSymbolicLink()) link = readlinkSync(path);
    } catch {
      continue; // not on this machine
    }
    if (link !== undefined && !isAbsolute(link)) links.push({ target: link, path });
    else mounts.push({ source: path, target: path, mode: 'ro', optional: true });
  }
  return { mounts, links };
}

/** The private home and temp folders of one server, created if missing. */
export function privateFolders(stateDir: string, backendId: string): { home: string; tmp: string; base: string } {
  const base = join(stateDir, 'sandboxes', backendId);
  const home = join(base, 'home');
  const tmp = join(base, 'tmp');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  mkdirSync(tmp, { recursive: true, mode: 0o700 });
  return { home, tmp, base };
}

/** A Unix socket path must fit in 108 bytes (sun_path); a longer state directory uses the temp folder. */
const MAX_SOCKET_PATH = 100;

function proxySocketPath(base: string, backendId: string): string {
  const inState = join(base, 'proxy.sock');
  if (Buffer.byteLength(inState) <= MAX_SOCKET_PATH) return inState;
  return join(tmpdir(), `switchboard-${process.pid}-${backendId.slice(0, 40)}.sock`);
}

/** Computes what a server may see from its setting and its launch line. */
export function resolveSandboxPolicy(input: SandboxPolicyInput): SandboxPolicy {
  const { home, setting } = input;
  const folders = privateFolders(input.stateDir, input.backendId);
  const { mounts, links } = systemMountsAndLinks();
  const readOnly = (source: string, optional = true): void => {
    mounts.push({ source, target: source, mode: 'ro', optional });
  };
  const install = input.resolvedCommand ? installFolderOf(input.resolvedCommand) : undefined;
  if (install) readOnly(install);
  // The folder the command was found in (a link to a runtime elsewhere, in a PATH entry of the user's).
  const found = input.resolvedCommand ? commandFolderOf(input.resolvedCommand) : undefined;
  if (found) readOnly(found);
  for (const cache of HOME_CACHES) readOnly(join(home, cache));
  for (const folder of input.extraPath) readOnly(expandHome(folder, home));
  for (const arg of input.args) {
    const folder = argumentFolder(arg);
    if (!folder) continue;
    readOnly(folder);
    // A project whose node_modules is a link (pnpm, a workspace, a worktree): its packages are elsewhere.
    const packages = linkedPackages(folder);
    if (packages) readOnly(packages);
  }
  const cwd = input.cwd === undefined ? undefined : resolve(expandHome(input.cwd, home));
  if (cwd) readOnly(cwd);
  for (const path of setting.read) readOnly(realOrSelf(expandHome(path, home)), false);
  for (const path of setting.write) {
    const source = writableMountOf(realOrSelf(expandHome(path, home)), home);
    mounts.push({ source, target: source, mode: 'rw', optional: false });
  }
  return {
    backendId: input.backendId,
    mounts: ordered(mounts),
    links,
    privateHome: folders.home,
    privateTmp: folders.tmp,
    home,
    cwd: cwd ?? home,
    network: setting.network,
    ...(Array.isArray(setting.network) ? { proxySocket: proxySocketPath(folders.base, input.backendId) } : {}),
  };
}

/**
 * Mounts parents first (a grant inside the home lands on top of the private
 * home), the same target once (the writable one wins).
 */
function ordered(mounts: SandboxMount[]): SandboxMount[] {
  const byTarget = new Map<string, SandboxMount>();
  for (const mount of mounts) {
    const seen = byTarget.get(mount.target);
    if (!seen || (mount.mode === 'rw' && seen.mode === 'ro') || (!mount.optional && seen.optional))
      byTarget.set(mount.target, { ...mount, mode: seen?.mode === 'rw' ? 'rw' : mount.mode });
  }
  const depth = (path: string): number => path.split(sep).length;
  return [...byTarget.values()].sort((a, b) => depth(a.target) - depth(b.target));
}

/**
 * Whether a host path is visible inside, and how (the deepest mount that
 * covers it decides), for explaining a refusal. The real home and /tmp are
 * `none`: the server sees its private ones at those paths.
 */
export function accessOf(policy: SandboxPolicy, path: string): 'ro' | 'rw' | 'none' {
  let found: 'ro' | 'rw' | 'none' = 'none';
  for (const mount of policy.mounts) if (isUnder(path, mount.target)) found = mount.mode;
  return found;
}
