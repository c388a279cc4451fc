/**
 * Whether a sandbox can run on this machine, and with which engine, asked
 * once per process (per PATH) and kept: bubblewrap on Linux (installed, and
 * user namespaces allowed), srt (@anthropic-ai/sandbox-runtime) on macOS
 * (sandbox-exec) and Windows (its sandbox account and network fence, set up
 * once by an administrator). Where none can run, the answer says why and what
 * to install or run, in words the UI, the CLI and health show as they are: a
 * server whose sandbox is on is then not started, never run unsandboxed.
 *
 * srt needs Node.js 22.12 or later and is loaded only here and where a
 * server is launched under it (srtEngine.ts): on an older Node the answer says
 * what to upgrade, and everything else keeps working.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { findCommand } from '../commandLookup.js';
import type * as SrtModule from '@anthropic-ai/sandbox-runtime';
import type { SrtPlatform } from './srtSettings.js';

/** The answer: an engine that works, or why there is none. */
export type SandboxSupport =
  | { available: true; engine: 'bubblewrap'; bwrap: string }
  | { available: true; engine: 'srt'; platform: SrtPlatform }
  | { available: false; reason: string };

/** The srt release we ship (its Windows setup must be the same release's). */
export const SRT_VERSION = '0.0.83';

/** The Node.js srt needs. */
const SRT_NODE = { major: 22, minor: 12 };

/** The one command that sets srt up on Windows (one administrator prompt). */
export const WINDOWS_SETUP_COMMAND = `npx @anthropic-ai/sandbox-runtime@${SRT_VERSION} windows-install`;

/** What srt says of this machine: its dependency check, and on Windows whether its account is set up. */
export interface SrtReadiness {
  errors: string[];
  /** Windows: the `srt-sandbox` account exists (`checkWindowsSandboxStatus`). */
  windowsProvisioned?: boolean;
}

/** What the answer depends on (the real machine by default; tests give their own). */
export interface SupportHost {
  platform: NodeJS.Platform;
  /** `process.versions.node`. */
  nodeVersion: string;
  exists: (path: string) => boolean;
  /** srt's own check (loads srt: call only on Node 22.12+); throws when srt cannot be loaded. */
  srt: (platform: SrtPlatform) => SrtReadiness;
}

/** The answers so far, by the PATH bubblewrap was looked for on (a server's env may set its own). */
const asked = new Map<string, Promise<SandboxSupport>>();

/** Answers already settled, by PATH. */
const settled = new Map<string, SandboxSupport>();

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
  const answer = platformAnswer(realHost()) ?? bubblewrapAnswer(path, runOnceSync);
  settled.set(path, answer);
  if (!asked.has(path)) asked.set(path, Promise.resolve(answer));
  return answer;
}

/** This machine. */
function realHost(): SupportHost {
  return { platform: process.platform, nodeVersion: process.versions.node, exists: existsSync, srt: srtReadiness };
}

/** Whether `version` is at least major.minor. */
export function nodeAtLeast(version: string, major: number, minor: number): boolean {
  const [have, haveMinor] = version.replace(/^v/, '').split('.').map(Number);
  if (have === undefined || Number.isNaN(have)) return false;
  return have > major || (have === major && (haveMinor ?? 0) >= minor);
}

const PLATFORM_NAMES: Record<SrtPlatform, string> = { darwin: 'macOS', win32: 'Windows' };

/**
 * The answer where the platform decides without bubblewrap: macOS and
 * Windows through srt, any other non-Linux system none (undefined: Linux).
 */
export function platformAnswer(host: SupportHost): SandboxSupport | undefined {
  if (host.platform === 'linux') return undefined;
  if (host.platform !== 'darwin' && host.platform !== 'win32')
    return {
      available: false,
      reason: `no sandbox is available on ${host.platform} (Linux with bubblewrap, macOS and Windows have one)`,
    };
  const platform = host.platform;
  const name = PLATFORM_NAMES[platform];
  if (!nodeAtLeast(host.nodeVersion, SRT_NODE.major, SRT_NODE.minor))
    return {
      available: false,
      reason: `the sandbox on ${name} (srt) needs Node.js ${SRT_NODE.major}.${SRT_NODE.minor} or later, and this is Node.js ${host.nodeVersion}: upgrade Node.js (https://nodejs.org, or nvm install 22), or use the desktop app, which embeds Node.js 22`,
    };
  if (platform === 'darwin' && !host.exists('/usr/bin/sandbox-exec'))
    return {
      available: false,
      reason: 'the sandbox on macOS (srt) runs servers through /usr/bin/sandbox-exec, which is missing on this Mac',
    };
  let readiness: SrtReadiness;
  try {
    readiness = host.srt(platform);
  } catch (error) {
    return {
      available: false,
      reason: `the sandbox on ${name} (srt) could not be loaded: ${(error as Error).message}`,
    };
  }
  if (platform === 'win32' && readiness.windowsProvisioned === false)
    return {
      available: false,
      reason: `the sandbox on Windows (srt) needs its one-time setup, which asks for an administrator once: run \`${WINDOWS_SETUP_COMMAND}\` in a terminal, accept the prompt, then restart Switchboard`,
    };
  if (readiness.errors.length > 0) {
    const said = readiness.errors.join('; ');
    const fix = platform === 'win32' ? ` (to set it up again: \`${WINDOWS_SETUP_COMMAND} --force\`)` : '';
    return { available: false, reason: `the sandbox on ${name} (srt) cannot run here: ${said}${fix}` };
  }
  return { available: true, engine: 'srt', platform };
}

/** srt's own check of this machine, loaded synchronously (Node 22.12+ loads an ES module with require). */
function srtReadiness(platform: SrtPlatform): SrtReadiness {
  const srt = createRequire(import.meta.url)('@anthropic-ai/sandbox-runtime') as typeof SrtModule;
  const readiness: SrtReadiness = { errors: [] };
  if (platform === 'win32') {
    try {
      readiness.windowsProvisioned = srt.checkWindowsSandboxStatus().user.provisioned;
    } catch {
      readiness.windowsProvisioned = false;
    }
    if (!readiness.windowsProvisioned) return readiness;
  }
  readiness.errors = srt.SandboxManager.checkDependencies().errors;
  return readiness;
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
  const platform = platformAnswer(realHost());
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
