/**
 * How backed up a client's HTTP responses are: the open responses of one
 * 2025-era session (its standalone GET stream, its requests' SSE streams), or
 * the one response of a 2026-07-28 request, watched for a client that stops
 * reading. The SDK's transport writes into a web stream that Node's response
 * drains only as fast as the client reads; a response waiting to drain means
 * the client is behind.
 */
import type { ServerResponse } from 'node:http';
import type { OutboundFlow } from '../relay/notificationQueue.js';
import { DrainWait } from '../relay/drainWait.js';

/** Open responses, as the flow a notification queue or a progress relay watches. */
export class ResponseFlow implements OutboundFlow {
  private readonly open = new Set<ServerResponse>();
  /** One listener pair per stuck response, however many notifications wait (drainWait.ts). */
  private readonly drained = new DrainWait();

  /** Watches `res` until it closes. */
  add(res: ServerResponse): void {
    this.open.add(res);
    res.once('close', () => this.open.delete(res));
  }

  congested(): boolean {
    for (const res of this.open) if (res.writableNeedDrain) return true;
    return false;
  }

  whenDrained(then: () => void): void {
    const stuck = [...this.open].filter((res) => res.writableNeedDrain);
    if (stuck.length === 0) return void setImmediate(then);
    this.drained.add(stuck, then);
  }

  /** Ends every open response (the session was ended): what they hold is freed. */
  destroyAll(): void {
    for (const res of this.open) res.destroy();
    this.open.clear();
  }
}
