/** The options a frontend passes along with each routed request. */
import type { FrontendChannel } from '../relay/frontendChannel.js';
import type { CallerIdentity } from '../../catalog/policy/callerIdentity.js';
import type { ProgressUpdate } from './forwarding.js';
import type { Principal } from '../../catalog/policy/principal.js';

/** Per-request options a frontend passes along. */
export interface RouteOptions {
  signal?: AbortSignal;
  /** Called with each progress update of the backend request, when the frontend asked for progress. */
  onProgress?: ((progress: ProgressUpdate) => void) | undefined;
  /**
   * The frontend that made the request (tools/call, prompts/get,
   * resources/read): where the backend's input requests go, and a 2026-07-28
   * retry's answers. Without it, backends' input requests are refused.
   */
  frontend?: FrontendChannel | undefined;
  /** The client profile making the request (default: the local user). */
  client?: string | undefined;
  /** Gateway mode: the signed-in person making the request (audit entries and `ask` name them). */
  principal?: Principal | undefined;
  /**
   * Who makes the request, for per-caller upstream credentials (default: the
   * client profile alone; gateway mode adds the signed-in principal).
   */
  caller?: CallerIdentity | undefined;
  /**
   * The backend request's deadline instead of the backend's `requestTimeoutMs`:
   * a call Switchboard runs as a task is bounded by the task's TTL, since the
   * client no longer waits on the request (a 20-minute job must not be cut at 60 s).
   */
  timeoutMs?: number | undefined;
  /** Code mode: the `run_code` run making this call, named in its audit entry. */
  run?: string | undefined;
}
