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
  caller?: () => string,
): void {
  // Made at the first subscribe: an instance that never subscribes (every 2026 request's) costs nothing.
  let sink: CoalescingSink | undefined;
  const sinkOf = (): CoalescingSink => {
    const send = (uri: string) => server.sendResourceUpdated({ uri });
    sink ??= new CoalescingSink(`session:${randomUUID()}`, send, client, undefined, caller?.());
    return sink;
  };
  server.setRequestHandler('resources/subscribe', async (request) => {
    await hub.attach(sinkOf(), request.params.uri);
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    if (sink) await hub.detach(sink, request.params.uri);
    return {};
  });
  const previous = server.onclose;
  server.onclose = () => {
    previous?.();
    if (sink) hub.detachAll(sink);
  };
}
