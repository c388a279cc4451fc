/**
 * A 2025-era Streamable HTTP backend that no longer knows our session (it
 * restarted, or a load balancer sent us to a replica that never had it)
 * answers HTTP 404 to its id, and the spec says what to do: "When a client
 * receives HTTP 404 in response to a request containing an Mcp-Session-Id, it
 * MUST start a new session by sending a new InitializeRequest without a
 * session ID attached" (MCP 2025-11-25, Basic > Transports > Streamable HTTP >
 * Session Management). The backend never processed a request it answered so,
 * so that request is sent once more on the new session. One renewal serves
 * every request that met the lost session (single flight); requests sent while
 * it runs wait for it. A request answered 404 again on the new session fails
 * with a clear error: no loop. The listen stream (the GET the SDK opens after
 * `notifications/initialized`) has no request to fail, so its 404 renews a
 * session only if that session is not one opened here that never served a
 * request: a backend that loses every session (a balancer without affinity)
 * would otherwise have each new listen stream ask for yet another.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/** What the renewal needs from its connection. */
export interface SessionRenewalHost {
  readonly backendId: string;
  /** The session id the next request carries; undefined where there is none (stdio, 2026-07-28). */
  sessionId(): string | undefined;
  /** Opens a new session (initialize, initialized) and brings back what the old one held. */
  reopen(signal: AbortSignal): Promise<void>;
  /** How long one renewal may take. */
  timeoutMs(): number;
  /** A renewal succeeded (the catalog may have changed while the session was gone). */
  renewed(): void;
}

/** Whether `error` is the backend's HTTP 404 (the SDK's SdkHttpError carries the status). */
export function isNotFound(error: unknown): boolean {
  return (error as { status?: unknown } | null)?.status === 404;
}

/** `promise`, or the signal's reason once it aborts first. */
function until<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Renews one connection's session when the backend forgot it; see the module comment. */
export class SessionRenewal {
  /** The renewal in flight and the session it replaces. */
  private renewing: { lost: string; done: Promise<void> } | undefined;
  /** The session the last renewal opened, and whether a request has been answered on it since. */
  private opened: { id: string | undefined; served: boolean } | undefined;

  constructor(private readonly host: SessionRenewalHost) {}

  /**
   * Sends one request (`send`) on the current session; if the backend answers
   * 404 to the session it carried, renews the session and sends it once more.
   * `signal` (the request's deadline and its caller's abort) bounds the waits.
   */
  async send<T>(send: () => Promise<T>, signal: AbortSignal): Promise<T> {
    // A renewal under way: this request waits for the new session (a failed renewal is the request's to meet).
    const renewing = this.renewing?.done.catch(() => undefined);
    if (renewing) await until(renewing, signal);
    const carried = this.host.sessionId();
    try {
      return this.served(carried, await send());
    } catch (error) {
      if (carried === undefined || !isNotFound(error) || signal.aborted) throw error;
      await this.lost(carried, signal);
    }
    const renewed = this.host.sessionId();
    try {
      return this.served(renewed, await send());
    } catch (error) {
      if (!isNotFound(error)) throw error;
      throw this.failure('again the new one right after: it keeps losing sessions');
    }
  }

  /** `result`, noting that a session opened here has answered a request. */
  private served<T>(session: string | undefined, result: T): T {
    const opened = this.opened;
    if (opened && opened.id === session) opened.served = true;
    return result;
  }

  /**
   * The backend answered 404 to session `lost`: renews it, or joins the
   * renewal already under way. A session renewed already is left alone.
   */
  lost(lost: string, signal?: AbortSignal): Promise<void> {
    let renewing = this.renewing;
    if (renewing?.lost !== lost) {
      if (this.host.sessionId() !== lost) return Promise.resolve();
      const current = { lost, done: this.renew() };
      this.renewing = renewing = current;
      void current.done
        .then(
          () => this.host.renewed(),
          () => undefined,
        )
        .finally(() => {
          if (this.renewing === current) this.renewing = undefined;
        });
    }
    return signal ? until(renewing.done, signal) : renewing.done;
  }

  /**
   * The listen stream's GET was answered 404 to session `lost`: renews it in
   * the background, unless it was opened here and never served a request (see the module comment).
   */
  listenLost(lost: string): void {
    const opened = this.opened;
    if (opened?.id === lost && !opened.served) return;
    // A failure is the next request's to meet (and to renew again).
    this.lost(lost).catch(() => undefined);
  }

  /** One renewal, bounded by its own deadline (no single caller's abort ends it for the others). */
  private async renew(): Promise<void> {
    try {
      await this.host.reopen(AbortSignal.timeout(this.host.timeoutMs()));
      this.opened = { id: this.host.sessionId(), served: false };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw this.failure(`a new one could not be opened: ${why}`);
    }
  }

  private failure(detail: string): SwitchboardError {
    const id = this.host.backendId;
    return new SwitchboardError(
      ErrorCode.BackendUnavailable,
      `backend "${id}" forgot our session (HTTP 404), and ${detail}`,
      { backend: id },
    );
  }
}
