/**
 * Routing of a request that may need input from the frontend
 * (`tools/call`, `prompts/get`, `resources/read`: the methods whose 2026-07-28
 * results include `input_required`). The branch is on the backend's era:
 *
 * - 2026-07-28 backend: the backend returns an `InputRequiredResult`; we
 *   return it as is and forward the retry's `inputResponses` and
 *   `requestState` unchanged. A 2026 frontend retries itself; for a 2025
 *   frontend the SDK's legacy shim in our server turns the result into real
 *   `elicitation/create` (etc.) requests and re-enters our handler with the
 *   answers. The frontend's capabilities go in `_meta`, so the backend only
 *   asks for what this frontend can give.
 * - 2025-era backend: the backend pushes requests to us during the call; a
 *   {@link LegacyCall} tracks the call and relays them (directly to a 2025
 *   frontend, parked behind an `InputRequiredResult` for a 2026 one).
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type InputRequiredResult,
  type Progress,
} from '@modelcontextprotocol/server';
import type { BackendConnection } from '../../backends/connection/backendConnection.js';
import type { BackendRequestOptions } from '../../backends/connection/backendRequests.js';
import type { FrontendChannel } from './frontendChannel.js';
import { LegacyCall, type LegacySendOptions } from './legacyCall.js';
import type { ParkedCalls, ParkedRetry } from './parkedCalls.js';

/**
 * The SDK's own request timeout, for backend requests bounded by our queue
 * deadline instead: that deadline pauses while a person answers, the SDK's
 * cannot. The largest delay a Node timer takes (a larger one fires at once).
 */
const SDK_TIMEOUT_OFF_MS = 2_147_483_647;

/**
 * Input rounds one request may take when our server's legacy shim answers a
 * 2026-07-28 backend's `input_required` for a 2025 client (SDK default 8; a
 * wizard-like tool may ask more often).
 */
export const SHIM_MAX_ROUNDS = 32;

/** What the relay needs from the core. */
export interface RelayHost {
  /** Calls to 2025-era backends waiting for a 2026-07-28 frontend's retry. */
  parked: ParkedCalls<LegacyCall<unknown>>;
  /** How long a person may take to answer (`proxy.inputTimeoutMs`). */
  inputTimeoutMs(): number;
}

/** Per-request options from the frontend. */
export interface RelayOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: Progress) => void) | undefined;
  frontend?: FrontendChannel | undefined;
  /** The backend request's deadline, when not the backend's `requestTimeoutMs` (see RouteOptions). */
  timeoutMs?: number | undefined;
}

/** Options the backend request is made with. */
export type PerformOptions = BackendRequestOptions;

/** One request to relay. */
export interface RelayedRequest<P extends { _meta?: Record<string, unknown> | undefined }, R> {
  connection: BackendConnection;
  /** Names the request in queue errors, e.g. `tools/call search`. */
  label: string;
  /** What a park token is bound to: the method and the exposed name or URI. */
  binding: string;
  /** Params for the backend (original name, forwarded `_meta`). */
  params: P;
  perform(params: P, options: PerformOptions): Promise<R | InputRequiredResult>;
}

/** Sends a request to its backend, relaying any input the backend needs from the frontend. */
export function relayRequest<P extends { _meta?: Record<string, unknown> | undefined }, R>(
  host: RelayHost,
  request: RelayedRequest<P, R>,
  options: RelayOptions,
): Promise<R | InputRequiredResult> {
  return request.connection.era === 'modern' ? passThrough(request, options) : relayLegacy(host, request, options);
}

function passThrough<P extends { _meta?: Record<string, unknown> | undefined }, R>(
  request: RelayedRequest<P, R>,
  options: RelayOptions,
): Promise<R | InputRequiredResult> {
  const { frontend, onProgress } = options;
  let params = request.params;
  if (frontend) {
    params = {
      ...params,
      ...(frontend.inputResponses ? { inputResponses: frontend.inputResponses } : {}),
      ...(frontend.requestState !== undefined ? { requestState: frontend.requestState } : {}),
      // The SDK client stamps its own capabilities on each 2026 request;
      // user `_meta` wins, so the backend sees the frontend's.
      _meta: {
        ...legacyLogLevel(frontend),
        ...params._meta,
        [CLIENT_CAPABILITIES_META_KEY]: frontend.capabilities ?? {},
      },
    };
  }
  return request.connection.run(
    request.label,
    ({ signal, sdkTimeoutMs }) =>
      request.perform(params, {
        signal,
        timeout: sdkTimeoutMs(),
        allowInputRequired: true,
        ...(onProgress ? { onprogress: onProgress } : {}),
      }),
    options.signal,
    options.timeoutMs,
  );
}

/**
 * The call's next step; a call that failed (an error, or an error result)
 * after its backend asked for something the 2026-07-28 frontend had not
 * declared fails as a 2026 server would have failed it: -32021 naming what
 * was missing (HTTP 400). A backend that carried on without it keeps its answer.
 */
async function nextStep<R>(call: LegacyCall<R>): Promise<Awaited<ReturnType<LegacyCall<R>['next']>>> {
  let step: Awaited<ReturnType<LegacyCall<R>['next']>>;
  try {
    step = await call.next();
  } catch (error) {
    throw missingCapabilityError(call) ?? error;
  }
  if ('result' in step && (step.result as { isError?: unknown }).isError === true) {
    const refused = missingCapabilityError(call);
    if (refused) throw refused;
  }
  return step;
}

function missingCapabilityError(call: LegacyCall<unknown>): MissingRequiredClientCapabilityError | undefined {
  const missing = call.missingCapabilities;
  if (!missing) return undefined;
  const names = Object.keys(missing).join(', ');
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: missing },
    `the server needs the client capability ${names}, which this request did not declare`,
  );
}

/**
 * A 2026-07-28 server logs during a request only at the level the request
 * asks for; a 2025 server logs unasked, and a 2025 client expects those logs
 * (each session's `logging/setLevel` then filters what reaches it). So a
 * 2025 frontend's request asks for everything.
 */
function legacyLogLevel(frontend: FrontendChannel): Record<string, unknown> {
  return frontend.era === 'legacy' ? { [LOG_LEVEL_META_KEY]: 'debug' } : {};
}

async function relayLegacy<P extends { _meta?: Record<string, unknown> | undefined }, R>(
  host: RelayHost,
  request: RelayedRequest<P, R>,
  options: RelayOptions,
): Promise<R | InputRequiredResult> {
  const { frontend, signal } = options;
  let call: LegacyCall<R>;
  if (frontend?.requestState !== undefined) {
    const retry = { token: frontend.requestState, binding: request.binding, inputResponses: frontend.inputResponses };
    // Replicas: a call parked on another replica is resumed there.
    const elsewhere = host.parked.elsewhere(retry.token);
    if (elsewhere)
      return (await elsewhere.remote.resume(elsewhere.replica, retry, signal, options.onProgress)) as
        R | InputRequiredResult;
    call = takeParked<R>(host, retry);
  } else {
    const { connection } = request;
    call = new LegacyCall<R>({ tracker: connection.inputs, frontend, inputTimeoutMs: host.inputTimeoutMs() });
    call.start(
      (task, callSignal) => connection.run(request.label, task, callSignal, options.timeoutMs),
      ({ signal: sendSignal, onprogress }: LegacySendOptions) =>
        request.perform(request.params, {
          signal: sendSignal,
          timeout: SDK_TIMEOUT_OFF_MS,
          ...(onprogress ? { onprogress } : {}),
        }) as Promise<R>,
      options.onProgress !== undefined,
    );
  }
  return followed(host, call, request.binding, signal, options.onProgress);
}

/**
 * The call's next step for this exchange, its progress sent to the exchange
 * meanwhile. The frontend cancelling (or going away) while this exchange
 * waits cancels the backend call. Only while it waits: a 2026 exchange's
 * signal also aborts once the exchange has ended normally, input_required or not.
 */
async function followed<R>(
  host: RelayHost,
  call: LegacyCall<R>,
  binding: string,
  signal: AbortSignal | undefined,
  onProgress: ((progress: Progress) => void) | undefined,
): Promise<R | InputRequiredResult> {
  const unfollow = call.follow(onProgress);
  const onAbort = (): void => call.cancel(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await advance(host, call, binding);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    unfollow();
  }
}

/** A retry: our token names the parked call (taken once), the responses answer it. */
function takeParked<R>(host: RelayHost, retry: ParkedRetry): LegacyCall<R> {
  const call = host.parked.take(retry.token, retry.binding) as LegacyCall<R> | undefined;
  if (!call) throw unresumable(host.parked.expired(retry.token)?.ttlMs);
  call.supply(retry.inputResponses);
  return call;
}

/** The call's next step for the exchange: its result, or the next input round (the call parked again). */
async function advance<R>(host: RelayHost, call: LegacyCall<R>, binding: string): Promise<R | InputRequiredResult> {
  const step = await nextStep(call);
  if ('result' in step) return step.result;
  const requestState = host.parked.park(call as LegacyCall<unknown>, binding);
  return { resultType: 'input_required', inputRequests: step.inputRequests, requestState };
}

/**
 * Replicas: a retry handed over by the replica it landed on, for a call
 * parked here. Its exchange is on that replica: the call's progress goes
 * back to it (`onProgress`), and its client's cancelling reaches the call
 * through `signal`, as for an exchange here.
 */
export function resumeParkedHere(
  host: RelayHost,
  retry: ParkedRetry,
  signal?: AbortSignal,
  onProgress?: (progress: Progress) => void,
): Promise<unknown> {
  return followed(host, takeParked<unknown>(host, retry), retry.binding, signal, onProgress);
}

/** The error for a retry whose `requestState` resumes nothing: expired (lifetime `ttlMs`), or unknown or used. */
function unresumable(ttlMs: number | undefined): ProtocolError {
  if (ttlMs === undefined) {
    return new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', {
      reason: 'invalid_request_state',
    });
  }
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `requestState expired: the call waited ${ttlMs} ms for this retry (proxy.parkedCallTtlMs) and was cancelled; call again without requestState`,
    { reason: 'expired_request_state', parkedCallTtlMs: ttlMs },
  );
}
