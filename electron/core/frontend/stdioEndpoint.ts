/**
 * The stdio entry: the same merged catalog over this process's stdin/stdout,
 * for clients that can only launch a command. Both eras (the SDK's
 * `serveStdio` pins one per connection).
 */
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { SwitchboardCore } from '../switchboard.js';
import { createFrontendServer, forwardBackendLog, notifyListChanged } from './mcpServer.js';

/** Serves the core over stdio; returns a function that stops serving. */
export function serveCoreOverStdio(core: SwitchboardCore): () => Promise<void> {
  const instances = new Set<Server>();
  const handle = serveStdio(() => {
    const server = createFrontendServer(core);
    instances.add(server);
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      instances.delete(server);
    };
    return server;
  });
  const unsubscribe = [
    core.events.on('catalogChanged', (changed) => {
      for (const server of instances) void notifyListChanged(server, changed);
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
