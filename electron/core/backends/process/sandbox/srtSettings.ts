/**
 * One sandbox policy (sandboxPolicy.ts) as the settings of srt
 * (@anthropic-ai/sandbox-runtime), the engine on macOS and Windows: a pure
 * mapping, so what a setting means on each platform is written down once and
 * tested exactly (test/unit/core/backends/process/sandbox/srtSettings.test.ts).
 *
 * srt keeps one session per process (`SandboxManager.initialize`) and wraps
 * each command with that session's rules plus a per-command override, so the
 * mapping has two halves: the session every sandboxed server of this process
 * shares, and one server's own part.
 *
 * - Reads. srt lets a command read everything but what `denyRead` names,
 *   `allowRead` re-opening paths beneath a denial. Ours shows nothing of the
 *   user's but what the policy mounts, so the user's home (and on macOS the
 *   other homes, external volumes and the shared temp folders) is denied and
 *   every mount beneath it re-opened, read-only or writable as the policy says.
 * - Writes: only the server's private home and temp folder and its `write`
 *   grants (srt adds its own mandatory denials: shell profiles, .git/hooks...).
 * - Network: the session allows no host at all; a server's hosts (its list,
 *   the package registry its runner fetches from) are registered under its
 *   command id (`registerCommandNetworkLists`), so one server's hosts are not
 *   another's. srt cannot give one server the whole network while the others
 *   stay fenced (its allow lists refuse `*`, and its ask callback is not told
 *   which command asks), so `network: "all"` is refused with a reason rather
 *   than widened for everyone.
 * - Windows grants files through access lists set for the whole session
 *   (`srt-win acl grant` at initialize; a per-command allowRead/allowWrite
 *   throws), so the session holds every sandboxed server's grants and each
 *   command denies the others' (per-command denials are supported).
 * - The private home: macOS and Windows cannot mount it at the real home's
 *   path as bubblewrap does, so HOME points at it.
 */
import type { SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import type { SandboxPolicy } from './sandboxPolicy.js';

/** The platforms srt carries our policy out on. */
export type SrtPlatform = 'darwin' | 'win32';

/** What one server's launch under srt needs, beside the session. */
export interface SrtCommandSettings {
  /** The per-command override given to `wrapWithSandboxArgv`. */
  customConfig: Partial<SandboxRuntimeConfig>;
  /** The hosts registered under the command's id (empty: none). */
  hosts: string[];
  /** Variables set for the server (its private home and temp folder). */
  env: Record<string, string>;
  cwd: string;
}

/** The answer: the settings, or why this policy cannot be carried out by srt. */
export type SrtMapping = { ok: true; command: SrtCommandSettings } | { ok: false; reason: string };

/** Where a user keeps what no server should see unless granted, per platform (besides the home). */
const HIDDEN: Record<SrtPlatform, (home: string) => string[]> = {
  // Other accounts' homes, mounted volumes, and the temp folders other programs share, by both
  // spellings (/tmp and /var are links into /private): a path beneath either is re-opened as spelled.
  darwin: (home) => [home, '/Users', '/Volumes', '/tmp', '/private/tmp', '/var/folders', '/private/var/folders'],
  // The sandbox account reads no profile but through srt's profile grant: the user's is denied all the same.
  win32: (home) => [home],
};

const unique = (paths: string[]): string[] => [...new Set(paths)];

function isUnder(path: string, folder: string, platform: SrtPlatform): boolean {
  const separator = platform === 'win32' ? '\\' : '/';
  const fold = (value: string): string => (platform === 'win32' ? value.toLowerCase() : value);
  const [p, f] = [fold(path), fold(folder)];
  return p === f || p.startsWith(f.endsWith(separator) ? f : f + separator);
}

/** The session all sandboxed servers of this process share on `platform`: no host, and on Windows every grant. */
export function srtSessionConfig(platform: SrtPlatform, policies: readonly SandboxPolicy[]): SandboxRuntimeConfig {
  const network = { allowedDomains: [], deniedDomains: [], allowLocalBinding: false };
  if (platform === 'darwin')
    return { network, filesystem: { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] } };
  const reads = policies.flatMap((policy) => ownReads(policy));
  const writes = policies.flatMap((policy) => ownWrites(policy));
  return {
    network,
    filesystem: {
      denyRead: [],
      allowRead: unique(reads.filter((path) => !writes.includes(path))),
      allowWrite: unique(writes),
      denyWrite: [],
    },
  };
}

/** What a server may write: its private folders and its write grants. */
function ownWrites(policy: SandboxPolicy): string[] {
  const granted = policy.mounts.filter((mount) => mount.mode === 'rw').map((mount) => mount.source);
  return unique([policy.privateHome, policy.privateTmp, ...granted]);
}

/** What a server may read beneath a hidden folder (its mounts; the system's are readable anyway). */
function ownReads(policy: SandboxPolicy): string[] {
  return unique(policy.mounts.filter((mount) => mount.mode === 'ro').map((mount) => mount.source));
}

/**
 * One server's part under srt on `platform`. `others`: the policies of the
 * other sandboxed servers of this process (Windows denies their grants to
 * this one; macOS needs nothing of them).
 */
export function srtCommandSettings(
  platform: SrtPlatform,
  policy: SandboxPolicy,
  others: readonly SandboxPolicy[] = [],
): SrtMapping {
  if (policy.network === 'all')
    return {
      ok: false,
      reason:
        'srt (the sandbox on macOS and Windows) can reach hosts only by name for one server: list the hosts it needs in sandbox.network instead of "all"',
    };
  const hosts = policy.network === 'none' ? [] : unique(policy.network);
  const hidden = HIDDEN[platform](policy.home);
  const writes = ownWrites(policy);
  const reads = ownReads(policy).filter((path) => !writes.includes(path));
  const beneathHidden = (path: string): boolean => hidden.some((folder) => isUnder(path, folder, platform));
  // Started in the real home (no cwd of its own), a server starts in its private one: the real one is hidden.
  const cwd = policy.cwd === policy.home ? policy.privateHome : policy.cwd;
  if (platform === 'darwin')
    return {
      ok: true,
      command: {
        customConfig: {
          filesystem: {
            denyRead: unique(hidden),
            allowRead: unique([...reads, ...writes].filter(beneathHidden)),
            allowWrite: writes,
            denyWrite: [],
          },
        },
        hosts,
        env: { HOME: policy.privateHome, TMPDIR: policy.privateTmp },
        cwd,
      },
    };
  const mine = [...reads, ...writes];
  const covered = (path: string): boolean => mine.some((own) => isUnder(path, own, platform));
  const othersRead = unique(others.flatMap((other) => [...ownReads(other), ...ownWrites(other)])).filter(
    (path) => !covered(path),
  );
  const othersWrite = unique(others.flatMap((other) => ownWrites(other))).filter(
    (path) => !writes.some((own) => isUnder(path, own, platform)),
  );
  return {
    ok: true,
    command: {
      customConfig: {
        filesystem: { denyRead: unique([...hidden, ...othersRead]), allowWrite: [], denyWrite: othersWrite },
      },
      hosts,
      env: { HOME: policy.privateHome },
      cwd,
    },
  };
}

/** POSIX shell quoting (macOS wraps `bash -c <line>`). */
function posixQuote(arg: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** cmd.exe quoting (Windows wraps `cmd /s /c "<line>"`): `"..."` with `"` doubled, `%` and `^` escaped. */
function cmdQuote(arg: string): string {
  if (/^[A-Za-z0-9_.\\/:=@+,-]+$/.test(arg)) return arg;
  return `"${arg.replace(/"/g, '""').replace(/([%^])/g, '^$1')}"`;
}

/** The command line srt's shell runs for `command args` on `platform`. */
export function srtCommandLine(platform: SrtPlatform, command: string, args: readonly string[]): string {
  const quote = platform === 'win32' ? cmdQuote : posixQuote;
  return [command, ...args].map(quote).join(' ');
}

/**
 * Windows: srt-win starts the command with a fresh environment and only the
 * `--env` pairs of its argv, so the server's own variables are added there,
 * before srt's own (which win: its proxy settings).
 */
export function withServerEnv(argv: readonly string[], env: Record<string, string>): string[] {
  const pairs = Object.entries(env).flatMap(([name, value]) => ['--env', `${name}=${value}`]);
  const at = argv.indexOf('--env');
  const end = argv.indexOf('--');
  const insertAt = at >= 0 ? at : end >= 0 ? end : argv.length;
  return [...argv.slice(0, insertAt), ...pairs, ...argv.slice(insertAt)];
}
