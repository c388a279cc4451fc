import { describe, expect, it } from 'vitest';
import { afterProgress, progressRelay } from '../../../../../electron/core/frontend/routing/forwarding.js';
import type { OutboundFlow } from '../../../../../electron/core/frontend/relay/notificationQueue.js';

type Sent = { method: string; params?: Record<string, unknown> };

describe('progressRelay', () => {
  it('keeps one update waiting while a send is under way, the latest winning, in order', async () => {
    const sent: Sent[] = [];
    let release: () => void = () => undefined;
    const relay = progressRelay('t', (notification) => {
      sent.push(notification);
      return new Promise<void>((resolve) => (release = resolve));
    })!;
    for (let progress = 1; progress <= 1000; progress++) relay({ progress, total: 1000 });
    expect(sent.map((n) => n.params?.['progress'])).toEqual([1]);
    release();
    await new Promise((resolve) => setTimeout(resolve, 5));
    release();
    await relay.idle();
    expect(sent.map((n) => n.params?.['progress'])).toEqual([1, 1000]);
    expect(sent[1]).toEqual({
      method: 'notifications/progress',
      params: { progressToken: 't', progress: 1000, total: 1000 },
    });
  });

  it('holds the update while the request’s stream is backed up, and sends the latest once it drains', async () => {
    const sent: Sent[] = [];
    let drained: () => void = () => undefined;
    let backedUp = true;
    const flow: OutboundFlow = { congested: () => backedUp, whenDrained: (then) => (drained = then) };
    const relay = progressRelay(7, async (notification) => void sent.push(notification), flow)!;
    for (let progress = 1; progress <= 50; progress++) relay({ progress });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(sent).toEqual([]);
    // The answer does not wait for a stuck client longer than its bound.
    const started = Date.now();
    expect(await afterProgress(relay, 'answer', 50)).toBe('answer');
    expect(Date.now() - started).toBeLessThan(1000);
    backedUp = false;
    drained();
    await relay.idle();
    expect(sent.map((n) => n.params?.['progress'])).toEqual([50]);
  });

  it('relays nothing when the client asked for no progress', () => {
    expect(progressRelay(undefined, async () => undefined)).toBeUndefined();
  });
});
