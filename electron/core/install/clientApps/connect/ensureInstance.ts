/**
 * Finding the running Switchboard for `connect`, or starting a headless one.
 * Every client that launches `connect` then shares that one instance and its
 * one set of backend processes. Two `connect`s starting at once (a client
 * that launches its servers in parallel) must not start two instances: a
 * lock file created exclusively decides which one starts it; the other waits
 * for the runtime file.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isProcessAlive } from '../../../backends/process/processTree.js';
import { findRunningInstance, type RuntimeInfo } from '../runtimeFile.js';
import type { Launcher } from '../clientAppTypes.js';

/** Options of {@link ensureInstance}. */
export interface EnsureOptions {
  stateDir: string;
  /** How to run `mcp-switchboard` (absolute node + script, or the app binary). */
  launcher: Launcher;
  /** The config to serve (default: serve's default). */
  config?: string;
  /** The port to start on; when taken, a free one is used (clients of `connect` find it in the runtime file). */
  port: number;
  /** Environment of the started instance (the client's own token variable is removed). */
  environment: NodeJS.ProcessEnv;
  /** How long to wait for an instance to become ready (default 30 s). */
  timeoutMs?: number;
  /** Progress lines for stderr. */
  log?: (line: string) => void;
}

/** The instance found or started. */
export interface EnsuredInstance {
  info: RuntimeInfo;
  /** True when this call started it. */
  started: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the runtime file until a live instance is there, `give-up` returns true, or time runs out. */
async function waitForInstance(
  stateDir: string,
  deadline: number,
  giveUp: () => boolean,
): Promise<RuntimeInfo | undefined> {
  while (Date.now() < deadline) {
    const info = await findRunningInstance(stateDir);
    if (info) return info;
    if (giveUp()) return undefined;
    await sleep(100);
  }
  return undefined;
}

/** Takes the start lock, or returns false when a live process holds it. A dead holder's lock is broken. */
async function takeLock(path: string): Promise<boolean> {
  for (let tries = 0; tries < 2; tries++) {
    try {
      closeSync(openSync(path, 'wx', 0o600));
      await writeFile(path, String(process.pid));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      // An empty file is a holder between create and write: treat it as live.
      if (!Number.isInteger(holder) || holder <= 0 || isProcessAlive(holder)) return false;
      await rm(path, { force: true });
    }
  }
  return false;
}

/** Starts `serve` detached, logging to `<state dir>/serve.log`; resolves with its pid and a way to see it exit. */
function startServe(options: EnsureOptions, port: number): { pid: number; exited: () => boolean } {
  const environment = { ...options.environment };
  // The client's token identifies the client; the instance uses its own token (SWITCHBOARD_TOKEN or its file).
  delete environment['SWITCHBOARD_CLIENT_TOKEN'];
  const log = openSync(join(options.stateDir, 'serve.log'), 'a', 0o600);
  // --quiet: the log file must not hold the token.
  const args = [...options.launcher.args, 'serve', '--quiet', '--port', String(port)];
  if (options.config) args.push('--config', options.config);
  const child = spawn(options.launcher.command, args, {
    detached: true, // outlives the client that launched us, and its process group
    stdio: ['ignore', log, log],
    env: environment,
    windowsHide: true,
  });
  closeSync(log);
  let exited = false;
  child.on('exit', () => (exited = true));
  child.on('error', () => (exited = true));
  child.unref();
  return { pid: child.pid ?? -1, exited: () => exited };
}

/**
 * Returns the running instance, starting a headless one first if there is
 * none (a stale runtime file counts as none). Throws when none is ready in time.
 */
export async function ensureInstance(options: EnsureOptions): Promise<EnsuredInstance> {
  const running = await findRunningInstance(options.stateDir);
  if (running) return { info: running, started: false };
  await mkdir(options.stateDir, { recursive: true, mode: 0o700 });
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const lock = join(options.stateDir, 'start.lock');
  while (Date.now() < deadline) {
    if (!(await takeLock(lock))) {
      // Another connect is starting it: wait for its runtime file (or for its lock to go away).
      const info = await waitForInstance(options.stateDir, Math.min(deadline, Date.now() + 1000), () => false);
      if (info) return { info, started: false };
      continue;
    }
    try {
      const again = await findRunningInstance(options.stateDir);
      if (again) return { info: again, started: false };
      for (const port of options.port === 0 ? [0] : [options.port, 0]) {
        options.log?.(`starting a headless Switchboard on port ${port === 0 ? '(any free)' : port}`);
        const child = startServe(options, port);
        const info = await waitForInstance(options.stateDir, deadline, child.exited);
        if (info) return { info, started: true };
        if (!child.exited()) break; // still starting after the deadline: do not start another
        options.log?.(`it exited before it was ready (see ${join(options.stateDir, 'serve.log')})`);
      }
      break;
    } finally {
      await rm(lock, { force: true });
    }
  }
  throw new Error(
    `no Switchboard became ready within ${Math.round((options.timeoutMs ?? 30_000) / 1000)} s; see ${join(options.stateDir, 'serve.log')}`,
  );
}
