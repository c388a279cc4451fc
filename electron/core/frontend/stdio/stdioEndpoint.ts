/**
 * The stdio entry: the same merged catalog over this process's stdin/stdout,
 * for clients that can only launch a command. Both eras (the SDK's
 * `serveStdio` pins one per connection); 2026-07-28 resource subscriptions go
 * through the same checks as over HTTP (see stdioListen.ts). Sessions, listen
 * sinks and notifications are the frontend hub's (frontendHub.ts).
 */
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { LOCAL_CLIENT } from '../../platform/config/policyConfig.js';
import type { UpdateSink } from '../relay/coalescingSink.js';
import type { FrontendCore } from '../../api/services.js';
import { FrontendHub } from '../server/frontendHub.js';
import { createFrontendServer } from '../server/mcpServer.js';
import { guardResponses } from '../server/responseGuard.js';
import { interceptListen } from './stdioListen.js';
import { openTaskListen } from '../http/taskListen.js';
import { boundNotifications, type OutboundFlow } from '../relay/notificationQueue.js';
import { DrainWait } from '../relay/drainWait.js';

/**
 * This process's stdout as a client's wire: backed up while it waits to drain.
 * A stuck stdio client is not ended (its connection is the process's only one);
 * its logs and progress stay bounded and the stall is logged.
 */
const stdoutDrained = new DrainWait();
const stdoutFlow: OutboundFlow = {
  congested: () => process.stdout.writableNeedDrain,
  whenDrained: (then) => stdoutDrained.add([process.stdout], then),
};

/** Serves the core over stdio; returns a function that stops serving. */
export function serveCoreOverStdio(core: FrontendCore): () => Promise<void> {
  const instances = new Set<Server>();
  let modernInstance: Server | undefined;
  const hub = new FrontendHub(core, {
    transport: 'stdio',
    // One connection: its servers serve no session of their own for log notifications.
    servers: () => [...instances].map((server) => [server, undefined] as const),
    // serveStdio routes an instance's sendResourceUpdated onto the listens that asked for the URI.
    publish: async (uri) => {
      await modernInstance?.sendResourceUpdated({ uri });
    },
    publisherId: 'stdio-2026',
  });
  const listens = new Map<string | number, UpdateSink>();
  // One session per stdio connection: its era and client info come with its first request.
  let sessionId: string | undefined;
  const stdio = guardResponses(new StdioServerTransport(), core.deps.logger);
  const proxy = core.backends.proxyOptions();
  const queue = boundNotifications(stdio, stdoutFlow, {
    max: proxy.maxClientNotifications,
    stallMs: proxy.clientStallMs,
    onStalled: (dropped) =>
      core.deps.logger.warn(
        `the stdio client has read nothing for ${proxy.clientStallMs} ms: its log and progress notifications are dropped (${dropped} so far)`,
      ),
  });
  const transport = interceptListen(stdio, {
    async onListen(id, uris) {
      listens.set(id, await hub.listen(`stdio-listen:${String(id)}`, LOCAL_CLIENT, uris));
    },
    onListenEnd(id) {
      const sink = listens.get(id);
      listens.delete(id);
      if (sink) hub.endListen(sink);
    },
    async onTaskListen(message, send) {
      return (await openTaskListen(core.tasks, LOCAL_CLIENT, message, send)).stop;
    },
    onClose() {
      queue.close();
      for (const sink of listens.values()) hub.endListen(sink);
      listens.clear();
      if (sessionId !== undefined) hub.close(sessionId);
    },
    onMessage(message) {
      if (!('method' in message) || !('id' in message)) return;
      if (sessionId !== undefined) return hub.touch(sessionId);
      sessionId = hub.open(LOCAL_CLIENT, message.method === 'initialize' ? 'legacy' : 'modern', message);
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
  return async () => {
    hub.dispose();
    await handle.close();
  };
}
