/**
 * Whether a sandbox can run on this machine, asked once per process and kept:
 * Linux with bubblewrap installed and user namespaces allowed. Anywhere else
 * (macOS, Windows, a Linux without bubblewrap or with user namespaces off) the
 * answer says why, in words the UI, the CLI and health show as they are: a
 * server whose sandbox is on is then not started, never run unsandboxed.
 */
import { execFile, execFileSync } from 'node:child_process';
import { findCommand } from '../commandLookup.js';

/** The answer: an engine that works, or why there is none. */
export type SandboxSupport =
  { available: true; engine: 'bubblewrap'; bwrap: string } | { available: false; reason: string };

/** The answers so far, by the PATH bubblewrap was looked for on (a server's env may set its own). */
const asked = new Map<string, Promise<SandboxSupport>>();

/** Whether (and with what) servers can be sandboxed here; the first call per PATH runs bubblewrap once. */
export function sandboxSupport(environment: NodeJS.ProcessEnv = process.env): Promise<SandboxSupport> {
  const path = environment['PATH'] ?? '/usr/bin:/bin';
  let answer = asked.get(path);
  if (!answer) {
    answer = probe(path);
    asked.set(path, answer);
  }
  return answer;
}

/**
 * The same answer, at once (an add deciding whether a new server gets a
 * sandbox): the one already found, else bubblewrap is run synchronously once
 * (a few milliseconds) and the answer kept for both.
 */
export function sandboxSupportNow(environment: NodeJS.ProcessEnv = process.env): SandboxSupport {
  const path = environment['PATH'] ?? '/usr/bin:/bin';
  const known = settled.get(path);
  if (known) return known;
  const answer = platformAnswer() ?? bubblewrapAnswer(path, runOnceSync);
  settled.set(path, answer);
  if (!asked.has(path)) asked.set(path, Promise.resolve(answer));
  return answer;
}

/** Answers already settled, by PATH. */
const settled = new Map<string, SandboxSupport>();

/** The answer where the platform alone decides (no Linux, no bubblewrap to ask). */
function platformAnswer(): SandboxSupport | undefined {
  if (process.platform === 'darwin')
    return { available: false, reason: 'sandboxing is not supported on macOS yet (only Linux, with bubblewrap)' };
  if (process.platform !== 'linux')
    return { available: false, reason: `no sandbox is available on ${process.platform} (only Linux, with bubblewrap)` };
  return undefined;
}

const NOT_INSTALLED =
  'bubblewrap is not installed (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap)';

function bubblewrapAnswer(path: string, run: (bwrap: string) => string | undefined): SandboxSupport {
  const bwrap = findCommand('bwrap', path);
  if (!bwrap) return { available: false, reason: NOT_INSTALLED };
  const failure = run(bwrap);
  if (failure === undefined) return { available: true, engine: 'bubblewrap', bwrap };
  return { available: false, reason: cannotRun(failure) };
}

function cannotRun(failure: string): string {
  return `bubblewrap cannot create a sandbox here: ${failure} (unprivileged user namespaces may be off: sysctl kernel.unprivileged_userns_clone, or an AppArmor rule for bwrap on Ubuntu 24.04+)`;
}

async function probe(path: string): Promise<SandboxSupport> {
  const answer = await probeOnce(path);
  settled.set(path, answer);
  return answer;
}

async function probeOnce(path: string): Promise<SandboxSupport> {
  const platform = platformAnswer();
  if (platform) return platform;
  const bwrap = findCommand('bwrap', path);
  if (!bwrap) return { available: false, reason: NOT_INSTALLED };
  const failure = await runOnce(bwrap);
  if (failure === undefined) return { available: true, engine: 'bubblewrap', bwrap };
  return { available: false, reason: cannotRun(failure) };
}

/** The smallest sandbox: `true` in new namespaces, the whole root read-only. */
const PROBE_ARGS = [
  '--unshare-all',
  '--die-with-parent',
  '--ro-bind',
  '/',
  '/',
  '--dev',
  '/dev',
  '--proc',
  '/proc',
  'true',
];

/** runOnce, synchronously (an add deciding at once). */
function runOnceSync(bwrap: string): string | undefined {
  try {
    execFileSync(bwrap, PROBE_ARGS, { timeout: 5000, stdio: ['ignore', 'ignore', 'pipe'] });
    return undefined;
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim();
    return stderr.split('\n').at(-1) || (error as Error).message;
  }
}

/** Runs `true` in the smallest sandbox; undefined when it worked, else bwrap's complaint. */
function runOnce(bwrap: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(bwrap, PROBE_ARGS, { timeout: 5000 }, (error, _stdout, stderr) => {
      if (!error) resolve(undefined);
      else resolve(stderr.trim().split('\n').at(-1) || error.message);
    });
  });
}
