/**
 * What the running Switchboard (if any) last saw of each backend, for
 * `auth-status`: the CLI's own view comes from the keychain only, but the
 * running instance knows whether the server answered 401, and since when.
 * Asked over the UI contract (`backends.list` on `/bridge`, with the main
 * token, as programs may), bounded by a short timeout; any failure just
 * means there is nothing to add.
 */
import { readFile } from 'node:fs/promises';
import { WebSocket } from 'ws';
import type { BackendStatus } from '../../shared/model/health.js';
import type { BackendView } from '../../shared/model/views.js';
import { findRunningInstance } from '../core/install/index.js';
import { frontendTokenPath } from '../core/platform/index.js';

/** One backend as the running instance sees it. */
export interface RunningBackend {
  status: BackendStatus;
  /** Its latest error message (redacted by the instance). */
  error?: string;
}

/** Where to look, and for how long. */
export interface RunningStatusOptions {
  stateDir: string;
  configDir: string;
  environment: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** The main token without creating one (a CLI query must not write the token file). */
async function mainToken(configDir: string, environment: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (environment['SWITCHBOARD_TOKEN']) return environment['SWITCHBOARD_TOKEN'];
  const saved = await readFile(frontendTokenPath(configDir), 'utf8').catch(() => '');
  return saved.trim() || undefined;
}

function listBackends(origin: string, token: string, timeoutMs: number): Promise<BackendView[] | undefined> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${origin.replace(/^http/, 'ws')}/bridge`, {
      headers: { Authorization: `Bearer ${token}` },
      origin,
    });
    const done = (value: BackendView[] | undefined): void => {
      clearTimeout(timer);
      ws.removeAllListeners();
      ws.on('error', () => undefined);
      ws.terminate();
      resolve(value);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    ws.on('open', () => ws.send(JSON.stringify({ id: 'auth-status', method: 'backends.list' })));
    ws.on('message', (data: Buffer) => {
      let frame: { id?: unknown; ok?: unknown; result?: unknown };
      try {
        frame = JSON.parse(data.toString()) as typeof frame;
      } catch {
        return;
      }
      if (frame.id !== 'auth-status') return; // an event
      done(frame.ok === true && Array.isArray(frame.result) ? (frame.result as BackendView[]) : undefined);
    });
    ws.on('error', () => done(undefined));
    ws.on('unexpected-response', () => done(undefined));
  });
}

/** Each backend's status in the running instance, or undefined when none runs or it does not answer. */
export async function runningBackends(options: RunningStatusOptions): Promise<Map<string, RunningBackend> | undefined> {
  const info = await findRunningInstance(options.stateDir);
  if (!info) return undefined;
  const token = await mainToken(options.configDir, options.environment);
  if (!token) return undefined;
  const views = await listBackends(new URL(info.url).origin, token, options.timeoutMs ?? 3000);
  if (!views) return undefined;
  return new Map(
    views.map((view) => [
      view.health.id,
      {
        status: view.health.status,
        ...(view.health.lastError ? { error: view.health.lastError.message } : {}),
      },
    ]),
  );
}
