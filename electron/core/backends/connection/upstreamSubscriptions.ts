/**
 * Resource subscriptions toward one backend. A 2025-era backend takes
 * `resources/subscribe` / `resources/unsubscribe` per URI. A 2026-07-28
 * backend has no such methods: subscriptions ride a `subscriptions/listen`
 * stream whose filter cannot change once open, so we keep one stream holding
 * the whole URI set and replace it make-before-break (open the new one, wait
 * for its acknowledgement, close the old one) when the set changes. A 2025
 * backend's subscriptions live in its session: a new session (sessionRenewal.ts)
 * subscribes them again.
 */
import type { Client, McpSubscription } from '@modelcontextprotocol/client';

/** Subscribes and unsubscribes one backend's resources, whatever its era. */
export interface UpstreamSubscriptions {
  add(uri: string): Promise<void>;
  remove(uri: string): Promise<void>;
  /** Subscribes again, on a new session, everything the old one held. */
  renew(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** Sends one request with a deadline, on a session renewed if the backend forgot it (sessionRenewal.ts). */
export type UpstreamSend = (send: (signal: AbortSignal) => Promise<unknown>) => Promise<unknown>;

/** 2025 era: one request per URI. */
export class LegacyUpstream implements UpstreamSubscriptions {
  /** The URIs the backend accepted (what a new session must hold again). */
  private readonly held = new Set<string>();

  constructor(
    private readonly client: Client,
    private readonly send: UpstreamSend,
  ) {}

  async add(uri: string): Promise<void> {
    await this.send((signal) => this.client.subscribeResource({ uri }, { signal }));
    this.held.add(uri);
  }

  async remove(uri: string): Promise<void> {
    this.held.delete(uri);
    await this.send((signal) => this.client.unsubscribeResource({ uri }, { signal }));
  }

  async renew(signal: AbortSignal): Promise<void> {
    await Promise.all([...this.held].map((uri) => this.client.subscribeResource({ uri }, { signal })));
  }

  async close(): Promise<void> {}
}

/** 2026-07-28: one listen stream per backend carrying every subscribed URI. */
export class ModernUpstream implements UpstreamSubscriptions {
  private readonly desired = new Set<string>();
  private current: { subscription: McpSubscription; uris: Set<string> } | undefined;
  /** Stream changes run one after another. */
  private chain: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly client: Client) {}

  add(uri: string): Promise<void> {
    this.desired.add(uri);
    return this.apply().then(() => {
      if (!this.current?.uris.has(uri)) {
        this.desired.delete(uri);
        throw new Error(`the backend did not accept a subscription to ${uri}`);
      }
    });
  }

  remove(uri: string): Promise<void> {
    this.desired.delete(uri);
    return this.apply();
  }

  /** 2026-07-28 has no sessions: the listen stream is reopened on its own when it ends. */
  async renew(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.current = undefined;
    await current?.subscription.close();
  }

  private apply(): Promise<void> {
    const next = this.chain.then(() => this.reconcile());
    this.chain = next.catch(() => undefined);
    return next;
  }

  private async reconcile(): Promise<void> {
    if (this.closed) return;
    const want = [...this.desired].sort();
    const old = this.current;
    if (old && want.length === old.uris.size && want.every((uri) => old.uris.has(uri))) return;
    if (want.length === 0) {
      this.current = undefined;
      await old?.subscription.close();
      return;
    }
    const subscription = await this.client.listen({ resourceSubscriptions: want });
    const honored = new Set(subscription.honoredFilter.resourceSubscriptions ?? []);
    this.current = { subscription, uris: honored };
    // The server may drop the stream; listen again (the SDK never does).
    void subscription.closed.then((how) => {
      if (how !== 'local' && this.current?.subscription === subscription && !this.closed) {
        this.current = undefined;
        void this.apply();
      }
    });
    await old?.subscription.close();
  }
}
