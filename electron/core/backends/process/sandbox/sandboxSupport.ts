/**
 * Whether a sandbox can run on this machine, asked once per process and kept:
 * Linux with bubblewrap installed and user namespaces allowed. Anywhere else
 * (macOS, Windows, a Linux without bubblewrap or with user namespaces off) the
 * answer says why, in words the UI, the CLI and health show as they are: a
 * server whose sandbox is on is then not started, never run unsandboxed.
 */
import { execFile } from 'node:child_process';
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

async function probe(path: string): Promise<SandboxSupport> {
  if (process.platform === 'darwin')
    return { available: false, reason: 'sandboxing is not supported on macOS yet (only Linux, with bubblewrap)' };
  if (process.platform !== 'linux')
    return { available: false, reason: `no sandbox is available on ${process.platform} (only Linux, with bubblewrap)` };
  const bwrap = findCommand('bwrap', path);
  if (!bwrap)
    return {
      available: false,
      reason: 'bubblewrap is not installed (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap)',
    };
  const failure = await runOnce(bwrap);
  if (failure === undefined) return { available: true, engine: 'bubblewrap', bwrap };
  return {
    available: false,
    reason: `bubblewrap cannot create a sandbox here: ${failure} (unprivileged user namespaces may be off: sysctl kernel.unprivileged_userns_clone, or an AppArmor rule for bwrap on Ubuntu 24.04+)`,
  };
}

/** Runs `true` in the smallest sandbox; undefined when it worked, else bwrap's complaint. */
function runOnce(bwrap: string): Promise<string | undefined> {
  const args = [
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
  return new Promise((resolve) => {
    execFile(bwrap, args, { timeout: 5000 }, (error, _stdout, stderr) => {
      if (!error) resolve(undefined);
      else resolve(stderr.trim().split('\n').at(-1) || error.message);
    });
  });
}
