/**
 * What the running Switchboard (if any) last saw of each backend, for
 * `auth-status` and `doctor` (what its sandbox refused it there): the CLI's own view comes from the keychain only, but the
 * running instance knows whether the server answered 401, and since when.
 * Asked over the UI contract (`backends.list` on `/bridge`, with the main
 * token, as programs may), bounded by a short timeout; any failure just
 * means there is nothing to add.
 */
import type { BackendStatus, SandboxBlock } from '../../shared/model/health.js';
import { callRunning, type RunningBridgeOptions } from './runningBridge.js';

/** One backend as the running instance sees it. */
export interface RunningBackend {
  status: BackendStatus;
  /** Its latest error message (redacted by the instance). */
  error?: string;
  /** What its sandbox refused it there, and the home it was given (for `doctor`). */
  sandbox?: { blocked: SandboxBlock[]; home?: string };
}

/** Where to look, and for how long. */
export type RunningStatusOptions = RunningBridgeOptions;

/** Each backend's status in the running instance, or undefined when none runs or it does not answer. */
export async function runningBackends(options: RunningStatusOptions): Promise<Map<string, RunningBackend> | undefined> {
  const call = await callRunning(options, 'backends.list');
  if (!call.reached || !call.outcome.ok || !Array.isArray(call.outcome.result)) return undefined;
  const views = call.outcome.result;
  return new Map(
    views.map((view) => [
      view.health.id,
      {
        status: view.health.status,
        ...(view.health.lastError ? { error: view.health.lastError.message } : {}),
        ...(view.health.sandbox?.blocked.length
          ? {
              sandbox: {
                blocked: view.health.sandbox.blocked,
                ...(view.health.sandbox.home ? { home: view.health.sandbox.home } : {}),
              },
            }
          : {}),
      },
    ]),
  );
}
