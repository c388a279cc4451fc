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
 *
 * A parked call lives `proxy.parkedCallTtlMs`: the backend is held open
 * meanwhile, and clients abandon forms without a word. At the end it is
 * cancelled (upstream too), and its token is remembered for a while (bounded
 * in number and time), so that a late retry is told its state expired rather
 * than that it never existed.
 *
 * Replicas (the `cluster` section): a token also names the replica holding
 * its call (`sb1.<replica, base64url>.<uuid>`), and a retry landing on
 * another replica is handed to that one ({@link ParkedElsewhere}, set by
 * tasks/replicaParks.ts). The call is still taken once, where it is held.
 */
import { randomUUID } from 'node:crypto';
import type { Progress } from '@modelcontextprotocol/server';
import { LRUCache } from 'lru-cache';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';

/** What a parked call must offer. */
export interface ParkableCall {
  /** Stops the call (and its backend request). */
  cancel(reason: Error): void;
}

/** Expired tokens remembered at most (a late retry beyond them gets "invalid" instead of "expired"). */
const EXPIRED_REMEMBERED = 1024;
/** How long an expired token is remembered. */
const EXPIRED_REMEMBERED_MS = 3_600_000;

/** What a late retry is told about a token whose call expired. */
export interface ExpiredPark {
  /** The lifetime the call had (`proxy.parkedCallTtlMs` when it was parked). */
  ttlMs: number;
}

/** Resumes calls parked on other replicas (set only with a `cluster` section). */
export interface ParkedElsewhere {
  /**
   * Hands a retry to `replica`, which holds the call parked under `token`;
   * resolves with that call's next step (a result or another `input_required`).
   * The call's progress meanwhile comes back through `onProgress`; `signal`
   * aborting cancels the call there.
   */
  resume(
    replica: string,
    retry: ParkedRetry,
    signal?: AbortSignal,
    onProgress?: (progress: Progress) => void,
  ): Promise<unknown>;
  /** Stops taking retries from other replicas (shutdown). */
  close(): void;
}

/** A 2026-07-28 frontend's retry of a parked call. */
export interface ParkedRetry {
  token: string;
  binding: string;
  inputResponses: Record<string, unknown> | undefined;
}

/** The replica a token names, when it names one (tokens of a single process name none). */
export function tokenReplica(token: string): string | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== 'sb1') return undefined;
  return Buffer.from(parts[1]!, 'base64url').toString('utf8') || undefined;
}

interface Entry<C> {
  call: C;
  binding: string;
  timer: NodeJS.Timeout;
}

/** Parked calls by token, each cancelled if not resumed within its lifetime. */
export class ParkedCalls<C extends ParkableCall> {
  private readonly entries = new Map<string, Entry<C>>();
  private readonly expiredTokens = new LRUCache<string, ExpiredPark>({
    max: EXPIRED_REMEMBERED,
    ttl: EXPIRED_REMEMBERED_MS,
    // Expired tokens are dropped when looked up or pushed out; no timer of their own.
    ttlAutopurge: false,
  });

  private readonly tokenPrefix: string;
  private remote: ParkedElsewhere | undefined;

  /**
   * `ttlMs` is read at each park, so a config change applies to the next one.
   * `replicaId` (replicas only) is named in each token.
   */
  constructor(
    private readonly ttlMs: () => number,
    readonly replicaId?: string,
  ) {
    this.tokenPrefix = replicaId === undefined ? 'sb1.' : `sb1.${Buffer.from(replicaId).toString('base64url')}.`;
  }

  /** Replicas: how a retry for a call parked on another replica reaches it. */
  shareAcross(remote: ParkedElsewhere): void {
    this.remote = remote;
  }

  /** The replica holding the call `token` names and how to reach it, when that is another replica. */
  elsewhere(token: string): { replica: string; remote: ParkedElsewhere } | undefined {
    if (!this.remote || this.entries.has(token)) return undefined;
    const replica = tokenReplica(token);
    if (replica === undefined || replica === this.replicaId) return undefined;
    return { replica, remote: this.remote };
  }

  /** Calls waiting for a retry. */
  get size(): number {
    return this.entries.size;
  }

  /** Parks `call` for a retry of the request `binding` names; returns the token. */
  park(call: C, binding: string): string {
    const token = `${this.tokenPrefix}${randomUUID()}`;
    const ttlMs = this.ttlMs();
    const timer = setTimeout(() => this.expire(token, ttlMs), ttlMs);
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

  /** Whether `token` named a call that expired unresumed (recently enough to be remembered). */
  expired(token: string): ExpiredPark | undefined {
    return this.expiredTokens.get(token);
  }

  /** Ends the call parked under `token`: its lifetime is over. */
  private expire(token: string, ttlMs: number): void {
    const entry = this.entries.get(token);
    if (!entry) return;
    this.entries.delete(token);
    this.expiredTokens.set(token, { ttlMs });
    entry.call.cancel(
      new SwitchboardError(
        ErrorCode.InputTimeout,
        `the client did not come back with its answer within ${ttlMs} ms (proxy.parkedCallTtlMs)`,
        { parkedCallTtlMs: ttlMs },
      ),
    );
  }

  /** Cancels every parked call (shutdown). */
  clear(reason: Error): void {
    this.remote?.close();
    this.remote = undefined;
    const entries = [...this.entries.values()];
    this.entries.clear();
    for (const entry of entries) {
      clearTimeout(entry.timer);
      entry.call.cancel(reason);
    }
  }
}
