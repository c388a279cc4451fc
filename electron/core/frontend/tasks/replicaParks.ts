/**
 * Replicas (the `cluster` section; loaded only then): a 2026-07-28 client's
 * retry of a call parked for its answers (frontend/relay/parkedCalls.ts) may
 * land on any replica, while the call (and the 2025-era backend request it
 * holds open) stays on the replica that parked it. The token names that
 * replica; a retry landing elsewhere is handed to it over replicaCalls.ts
 * (inboxes of their own, `relay`), which takes the call once and answers
 * with its next step. Meanwhile the call's progress comes back to the
 * replica that has the client's request (notes of the call, when the retry
 * asked for progress), and the client's cancelling that request, or its
 * timing out, cancels the call where it is held. A replica without a
 * heartbeat is gone: the retry fails at once, saying so; one that does not
 * answer within the request timeout fails with the timeout error.
 */
import { ProtocolError, ProtocolErrorCode, type Progress } from '@modelcontextprotocol/server';
import type { Cluster } from '../../platform/cluster/cluster.js';
import { resumeParkedHere, type RelayHost } from '../relay/inputRelay.js';
import type { ParkedElsewhere, ParkedRetry } from '../relay/parkedCalls.js';
import { replicaAlive } from './redisTaskStore.js';
import { ReplicaCalls } from './replicaCalls.js';

/** A retry as handed over: whether the replica that has the request relays progress to its client. */
interface HandedRetry extends ParkedRetry {
  progress?: boolean;
}

/** The error of a retry whose call was parked on a replica that is gone (the call went with it). */
function replicaGone(replica: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `requestState names a call parked on replica ${replica}, which is gone (the call ended with it); call again without requestState`,
    { reason: 'replica_gone', replica },
  );
}

/** The error while Redis does not answer (retryable: the replica reconnects by itself). */
function unavailable(error: unknown): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `shared state (Redis) unavailable: the call this retry resumes is on another replica (${(error as Error)?.message ?? String(error)}); retry`,
    { code: 'disconnected', retryable: true },
  );
}

/** Hands retries to the replica holding their call, and resumes those handed here; see the module comment. */
export class ReplicaParks implements ParkedElsewhere {
  private readonly calls: ReplicaCalls;

  /** `timeoutMs`: how long a handed-over retry may wait for its call's next step (`proxy.requestTimeoutMs`). */
  constructor(
    private readonly cluster: Cluster,
    host: RelayHost,
    private readonly timeoutMs: () => number,
  ) {
    this.calls = new ReplicaCalls(cluster, timeoutMs(), 'relay', 'holds this call');
    this.calls.serve((payload, call) => {
      const { progress, ...retry } = payload as HandedRetry;
      return resumeParkedHere(host, retry, call.signal, progress ? (step) => call.note(step) : undefined);
    });
  }

  async resume(
    replica: string,
    retry: ParkedRetry,
    signal?: AbortSignal,
    onProgress?: (progress: Progress) => void,
  ): Promise<unknown> {
    let alive: boolean;
    try {
      alive = await replicaAlive(this.cluster, replica);
    } catch (error) {
      throw unavailable(error);
    }
    if (!alive) throw replicaGone(replica);
    const handed: HandedRetry = { ...retry, ...(onProgress ? { progress: true } : {}) };
    const onNote = onProgress && ((note: unknown) => onProgress(note as Progress));
    return this.calls.call(replica, handed, signal, this.timeoutMs(), onNote);
  }

  /** Stops listening (the core's end). */
  close(): void {
    this.calls.close();
  }
}
