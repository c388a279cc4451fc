/**
 * The stdio entry: the same merged catalog over this process's stdin/stdout,
 * for clients that can only launch a command. Both eras (the SDK's
 * `serveStdio` pins one per connection); 2026-07-28 resource subscriptions go
 * through the same checks as over HTTP (see stdioListen.ts).
 */
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { LOCAL_CLIENT } from '../policy/policyConfig.js';
import { CoalescingSink, type UpdateSink } from '../relay/coalescingSink.js';
import { guardResponses } from './responseGuard.js';
import { interceptListen } from './stdioListen.js';
import { clientInfoOf } from './sessionRegistry.js';
import type { FrontendCore } from '../coreApi.js';
import { createFrontendServer, forwardBackendLog, notifyListChanged } from './mcpServer.js';

/** Serves the core over stdio; returns a function that stops serving. */
export function serveCoreOverStdio(core: FrontendCore): () => Promise<void> {
  const instances = new Set<Server>();
  let modernInstance: Server | undefined;
  const hub = core.subscriptions;
  // serveStdio routes an instance's sendResourceUpdated onto the listens that asked for the URI.
  const publisher = new CoalescingSink(
    'stdio-2026',
    async (uri) => {
      await modernInstance?.sendResourceUpdated({ uri });
    },
    LOCAL_CLIENT,
  );
  const listens = new Map<string | number, UpdateSink>();
  // One session per stdio connection: its era and client info come with its first request.
  let sessionId: string | undefined;
  const transport = interceptListen(guardResponses(new StdioServerTransport(), core.deps.logger), {
    async onListen(id, uris) {
      const sink: UpdateSink = {
        id: `stdio-listen:${String(id)}`,
        client: LOCAL_CLIENT,
        deliver: (uri) => publisher.deliver(uri),
      };
      await hub.attachAll(sink, uris);
      listens.set(id, sink);
    },
    onListenEnd(id) {
      const sink = listens.get(id);
      listens.delete(id);
      if (sink) hub.detachAll(sink);
    },
    onClose() {
      for (const sink of listens.values()) hub.detachAll(sink);
      listens.clear();
      if (sessionId !== undefined) core.sessions.close(sessionId);
    },
    onMessage(message) {
      if (!('method' in message) || !('id' in message)) return;
      if (sessionId !== undefined) return core.sessions.touch(sessionId);
      const info = clientInfoOf(message);
      sessionId = core.sessions.open({
        profile: LOCAL_CLIENT,
        era: message.method === 'initialize' ? 'legacy' : 'modern',
        transport: 'stdio',
        clientName: info.name,
        clientVersion: info.version,
      });
    },
  });
  const handle = serveStdio(
    ({ era }) => {
      const server = createFrontendServer(core);
      if (era === 'modern') modernInstance = server;
      instances.add(server);
      const previous = server.onclose;
      server.onclose = () => {
        previous?.();
        instances.delete(server);
      };
      return server;
    },
    { transport },
  );
  const unsubscribe = [
    core.events.on('catalogChanged', (changed) => {
      for (const server of instances) void notifyListChanged(core, server, changed);
    }),
    core.events.on('backendLog', (event) => {
      for (const server of instances) void forwardBackendLog(server, event);
    }),
  ];
  return async () => {
    for (const stop of unsubscribe) stop();
    await handle.close();
  };
}
