/**
 * One contract call to the running Switchboard, as a program may make it: over
 * its UI bridge (`/bridge`, a WebSocket) with the main token, bounded by a
 * timeout. Commands that act on what the running instance holds in memory
 * (health, reviews, the scan's reports) use it; when none runs or it does not
 * answer, the caller is told why in words it can print.
 */
import { readFile } from 'node:fs/promises';
import { WebSocket } from 'ws';
import type { CallOutcome, MethodName, ParamsOf, ResultOf } from '../../shared/contract.js';
import { findRunningInstance } from '../core/install/index.js';
import { defaultConfigDir, defaultStateDir, frontendTokenPath } from '../core/platform/index.js';

/** Where to look, and for how long. */
export interface RunningBridgeOptions {
  stateDir: string;
  configDir: string;
  environment: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** The call's outcome, or why the running instance was not reached. */
export type RunningCall<R> = { reached: true; outcome: CallOutcome<R> } | { reached: false; reason: string };

/** The main token without creating one (a CLI query must not write the token file). */
async function mainToken(configDir: string, environment: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (environment['SWITCHBOARD_TOKEN']) return environment['SWITCHBOARD_TOKEN'];
  const saved = await readFile(frontendTokenPath(configDir), 'utf8').catch(() => '');
  return saved.trim() || undefined;
}

/** Sends one call on a new bridge connection; undefined when no answer came in time. */
function callOnce(
  origin: string,
  token: string,
  request: { method: string; params?: unknown },
  timeoutMs: number,
): Promise<CallOutcome<unknown> | undefined> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/bridge`, {
      headers: { Authorization: `Bearer ${token}` },
      origin,
    });
    const id = `cli-${process.pid}`;
    const done = (value: CallOutcome<unknown> | undefined): void => {
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
      resolve(value);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    ws.on('open', () => ws.send(JSON.stringify({ id, ...request })));
    ws.on('message', (data: Buffer) => {
      let frame: { id?: unknown; ok?: unknown; result?: unknown; error?: unknown };
      try {
        frame = JSON.parse(data.toString()) as typeof frame;
      } catch {
        return;
      }
      if (frame.id !== id) return; // an event
      done(
        frame.ok === true
          ? { ok: true, result: frame.result }
          : { ok: false, error: frame.error as Extract<CallOutcome<unknown>, { ok: false }>['error'] },
      );
    });
    ws.on('error', () => done(undefined));
    ws.on('unexpected-response', () => done(undefined));
  });
}

/** Calls `method` on the running instance. */
export async function callRunning<M extends MethodName>(
  options: RunningBridgeOptions,
  method: M,
  params?: ParamsOf<M>,
): Promise<RunningCall<ResultOf<M>>> {
  const info = await findRunningInstance(options.stateDir);
  if (!info) return { reached: false, reason: 'no Switchboard is running (start it with: mcp-switchboard serve)' };
  const token = await mainToken(options.configDir, options.environment);
  if (!token) return { reached: false, reason: `no main token to reach the running Switchboard at ${info.url}` };
  const timeoutMs = options.timeoutMs ?? 3000;
  const outcome = await callOnce(
    new URL(info.url).origin,
    token,
    { method, ...(params !== undefined ? { params } : {}) },
    timeoutMs,
  );
  if (!outcome)
    return { reached: false, reason: `the running Switchboard at ${info.url} did not answer in ${timeoutMs} ms` };
  return { reached: true, outcome: outcome as CallOutcome<ResultOf<M>> };
}

/** Calls `method` on the running instance of this user (the default config and state folders, this environment). */
export function callUsersRunning<M extends MethodName>(
  method: M,
  params?: ParamsOf<M>,
): Promise<RunningCall<ResultOf<M>>> {
  const options = { stateDir: defaultStateDir(), configDir: defaultConfigDir(), environment: process.env };
  return callRunning(options, method, params);
}

/**
 * The same, waiting up to two minutes: for a method that answers once a
 * server has started again (approving or quarantining restarts it under its
 * new containment; an npx server's quarantined start first fetches its
 * packages), where the 3 s a read gets would report a change that is being
 * made as a failure.
 */
export function callUsersRunningPatiently<M extends MethodName>(
  method: M,
  params?: ParamsOf<M>,
): Promise<RunningCall<ResultOf<M>>> {
  const options = { stateDir: defaultStateDir(), configDir: defaultConfigDir(), environment: process.env };
  return callRunning({ ...options, timeoutMs: 120_000 }, method, params);
}
