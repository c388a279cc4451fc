/**
 * Calls to 2025-era backends waiting for a 2026-07-28 frontend to retry with
 * the answers to their input requests. The backend call keeps running (the
 * backend is blocked on its own request to us) while the frontend's first
 * exchange has already ended with an `InputRequiredResult`; the retry finds
 * the call again by the `requestState` we handed out.
 *
 * The map lives in the core, not in a frontend server instance: every
 * 2026-07-28 request gets a fresh server. Tokens are random and single-use,
 * and bound to the request they answer (method and exposed name), so a token
 * cannot resume a different tool. The spec treats `requestState` as
 * attacker-controlled (basic/patterns/mrtr): an unknown, used or mismatched
 * token resumes nothing.
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/** What a parked call must offer. */
export interface ParkableCall {
  /** Stops the call (and its backend request). */
  cancel(reason: Error): void;
}

interface Entry<C> {
  call: C;
  binding: string;
  timer: NodeJS.Timeout;
}

/** Parked calls by token, each cancelled if not resumed within the input timeout. */
export class ParkedCalls<C extends ParkableCall> {
  private readonly entries = new Map<string, Entry<C>>();

  /** `ttlMs` is read at each park, so a config change applies to the next one. */
  constructor(private readonly ttlMs: () => number) {}

  /** Calls waiting for a retry. */
  get size(): number {
    return this.entries.size;
  }

  /** Parks `call` for a retry of the request `binding` names; returns the token. */
  park(call: C, binding: string): string {
    const token = `sb1.${randomUUID()}`;
    const ttlMs = this.ttlMs();
    const timer = setTimeout(() => {
      this.entries.delete(token);
      call.cancel(
        new SwitchboardError(ErrorCode.InputTimeout, `no answer to the input request within ${ttlMs} ms`, {
          inputTimeoutMs: ttlMs,
        }),
      );
    }, ttlMs);
    // A parked call must not keep a headless process alive on its own.
    timer.unref();
    this.entries.set(token, { call, binding, timer });
    return token;
  }

  /**
   * Takes the call parked under `token` for the request `binding` names. An
   * unknown token, or one issued for another request, takes nothing (and
   * leaves a mismatched entry for its rightful retry).
   */
  take(token: string, binding: string): C | undefined {
    const entry = this.entries.get(token);
    if (!entry || entry.binding !== binding) return undefined;
    this.entries.delete(token);
    clearTimeout(entry.timer);
    return entry.call;
  }

  /** Cancels every parked call (shutdown). */
  clear(reason: Error): void {
    const entries = [...this.entries.values()];
    this.entries.clear();
    for (const entry of entries) {
      clearTimeout(entry.timer);
      entry.call.cancel(reason);
    }
  }
}
