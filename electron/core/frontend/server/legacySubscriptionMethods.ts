/**
 * resources/subscribe and resources/unsubscribe for 2025-era frontends (a
 * 2026-07-28 frontend subscribes through `subscriptions/listen`, which the HTTP
 * endpoint intercepts). Each server instance is one sink with bounded,
 * coalescing delivery; it leaves every subscription when it closes.
 */
import { randomUUID } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/server';
import { CoalescingSink } from '../relay/coalescingSink.js';
import type { SubscriptionsService } from '../../api/services.js';

/** Registers the subscription handlers on a frontend server instance. */
export function registerSubscriptionHandlers(
  server: Server,
  hub: SubscriptionsService,
  client: string,
  /** Who the session acts for (callerIdentity.ts callerKey): a per-caller server's subscriptions are theirs. */
  caller?: string,
): void {
  const send = (uri: string) => server.sendResourceUpdated({ uri });
  const sink = new CoalescingSink(`session:${randomUUID()}`, send, client, undefined, caller);
  server.setRequestHandler('resources/subscribe', async (request) => {
    await hub.attach(sink, request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    await hub.detach(sink, request.params.uri);
    return {};
  });
  const previous = server.onclose;
  server.onclose = () => {
    previous?.();
    hub.detachAll(sink);
  };
}
