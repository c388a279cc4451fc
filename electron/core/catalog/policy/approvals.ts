/**
 * Approval of `ask` tools. A call waits until the user approves it once,
 * approves it always, or denies it; with no answer within the timeout it is
 * denied. The UI (or any attached approver) sees pending requests through the
 * core; when none is attached, the router asks the calling client instead.
 * A 2026-07-28 client is asked with a single-use state token its retry
 * carries; with replicas (the `cluster` section) the tokens are kept in
 * Redis (redisAskTokens.ts), so the retry may reach any replica. With
 * replicas, pending approvals are shared too (SharedApprovals, kept in
 * Redis by replicaApprovals.ts): the call waits on the replica that took it,
 * every replica's UI lists it, an answer given through any replica reaches
 * the holder, and an approver attached to any replica counts.
 */
import { randomUUID } from 'node:crypto';

/** The user's answer. */
export type ApprovalDecision = 'once' | 'always' | 'deny';

/** A call waiting for approval, as the UI shows it. */
export interface ApprovalRequest {
  id: string;
  client: string;
  backend: string;
  /** The backend's own tool name. */
  tool: string;
  /** The name the client called. */
  exposed: string;
  arguments: Record<string, unknown> | undefined;
  requestedAt: string;
}

interface Pending {
  request: ApprovalRequest;
  resolve: (decision: ApprovalDecision | 'timeout') => void;
}

/** Prefix of the `requestState` that asks a 2026-07-28 client for approval. */
export const ASK_STATE_PREFIX = 'sbask.';

/** Ask tokens kept where every replica finds them (absent: this process's memory). */
export interface SharedAskTokens {
  /** Keeps `token` for `key` until `ttlMs` has passed. */
  put(token: string, key: string, ttlMs: number): Promise<void>;
  /** Takes `token` (once: it is gone after); its key, or undefined when unknown, taken or expired. */
  take(token: string): Promise<string | undefined>;
}

/**
 * Pending approvals and approvers as the replicas of a cluster share them
 * (absent: this process only). The broker tells it what happens here;
 * answers from other replicas reach the broker's `resolve`.
 */
export interface SharedApprovals {
  /** A call of this replica waits for `request`'s answer. */
  held(request: ApprovalRequest): void;
  /** That call's wait ended (answered, timed out, given up). */
  released(id: string): void;
  /** Whether approvers are attached to this replica now (called on every change). */
  approvers(count: number): void;
  /** Every live replica's pending requests but this one's (a Redis failure rejects). */
  others(): Promise<ApprovalRequest[]>;
  /** Answers another replica's pending request; false if none holds it any longer (a failure rejects). */
  answer(id: string, decision: ApprovalDecision): Promise<boolean>;
  /** Whether an approver is attached to any replica (a failure rejects). */
  approverAnywhere(): Promise<boolean>;
}

/** Pending approvals and the approvers attached to answer them. */
export class ApprovalBroker {
  private readonly pendingById = new Map<string, Pending>();
  /** Approvals put to 2026-07-28 clients as input_required: single-use state tokens. */
  private readonly askTokens = new Map<string, { key: string; expires: number }>();
  private approvers = 0;
  private shared: SharedAskTokens | undefined;
  private replicas: SharedApprovals | undefined;

  constructor(
    private readonly timeoutMs: number,
    private readonly onChange: () => void = () => {},
  ) {}

  /** Attaches an approver (the UI); returns the function that detaches it. */
  attach(): () => void {
    this.approvers++;
    this.replicas?.approvers(this.approvers);
    let attached = true;
    return () => {
      if (attached) this.approvers--;
      attached = false;
      this.replicas?.approvers(this.approvers);
    };
  }

  /** Whether someone is there to answer, on this replica. */
  get hasApprover(): boolean {
    return this.approvers > 0;
  }

  /** Whether someone is there to answer, on this replica or (replicas) another one; Redis away counts as no. */
  async approverPresent(): Promise<boolean> {
    if (this.approvers > 0 || !this.replicas) return this.approvers > 0;
    return this.replicas.approverAnywhere().catch(() => false);
  }

  /** Shares pending approvals and approvers with the other replicas from now on. */
  shareApprovals(shared: SharedApprovals): void {
    this.replicas = shared;
    shared.approvers(this.approvers);
    for (const { request } of this.pendingById.values()) shared.held(request);
  }

  /**
   * Every pending request, oldest first: this replica's and (replicas) every
   * other live replica's. With Redis away, this replica's alone.
   */
  async list(): Promise<ApprovalRequest[]> {
    const own = this.pending();
    if (!this.replicas) return own;
    const others = await this.replicas.others().catch(() => []);
    return [...own, ...others].sort((a, b) => a.requestedAt.localeCompare(b.requestedAt));
  }

  /** Answers a pending request held here or (replicas) by another replica; false if no longer pending. */
  async answer(id: string, decision: ApprovalDecision): Promise<boolean> {
    if (this.resolve(id, decision)) return true;
    return (await this.replicas?.answer(id, decision)) ?? false;
  }

  /** Requests waiting for an answer, oldest first. */
  pending(): ApprovalRequest[] {
    return [...this.pendingById.values()].map((entry) => entry.request);
  }

  /**
   * Waits for the user's answer; `timeout` after `timeoutMs` (default: the
   * broker's approval timeout), `deny` if the caller gives up.
   */
  request(
    details: Omit<ApprovalRequest, 'id' | 'requestedAt'>,
    signal?: AbortSignal,
    timeoutMs = this.timeoutMs,
  ): Promise<ApprovalDecision | 'timeout'> {
    const request: ApprovalRequest = { ...details, id: randomUUID(), requestedAt: new Date().toISOString() };
    return new Promise((resolve) => {
      const finish = (decision: ApprovalDecision | 'timeout'): void => {
        if (!this.pendingById.delete(request.id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.replicas?.released(request.id);
        this.onChange();
        resolve(decision);
      };
      const onAbort = (): void => finish('deny');
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pendingById.set(request.id, { request, resolve: finish });
      this.replicas?.held(request);
      this.onChange();
    });
  }

  /** Keeps ask tokens in `shared` from now on (replicas: the retry may reach another one). */
  shareAskTokens(shared: SharedAskTokens): void {
    this.shared = shared;
  }

  /**
   * A single-use state token for asking a 2026-07-28 client itself, bound to
   * the client and the tool it called, valid for the approval timeout. Kept
   * in this process when the shared store cannot take it (the retry then
   * works through this replica only).
   */
  async issueAskToken(client: string, exposed: string): Promise<string> {
    const now = Date.now();
    for (const [token, entry] of this.askTokens) if (entry.expires < now) this.askTokens.delete(token);
    const token = `${ASK_STATE_PREFIX}${randomUUID()}`;
    const key = `${client}\u0000${exposed}`;
    const kept = await this.shared?.put(token, key, this.timeoutMs).then(
      () => true,
      () => false,
    );
    if (!kept) this.askTokens.set(token, { key, expires: now + this.timeoutMs });
    return token;
  }

  /** Consumes an ask token; false if unknown, used, expired, or issued for another client or tool. */
  async takeAskToken(token: string, client: string, exposed: string): Promise<boolean> {
    const entry = this.askTokens.get(token);
    this.askTokens.delete(token);
    const key = `${client}\u0000${exposed}`;
    if (entry) return entry.expires >= Date.now() && entry.key === key;
    return this.shared !== undefined && (await this.shared.take(token)) === key;
  }

  /** Answers a pending request; false if it is no longer pending. */
  resolve(id: string, decision: ApprovalDecision): boolean {
    const entry = this.pendingById.get(id);
    if (!entry) return false;
    entry.resolve(decision);
    return true;
  }
}
