/**
 * A real SDK server in this process, reached through a real BackendConnection
 * over the SDK's linked in-memory transports: the router and relay units run
 * against it in milliseconds, with no child process.
 */
import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { BackendConnection, type BackendCatalog, LineTail } from '../../electron/core/backends/index.js';
import { CatalogPublisher, type Catalog } from '../../electron/core/catalog/index.js';
import { makeConfig } from './basics.js';

/** A connected in-process backend and the catalog it was published into. */
export interface InProcessBackend {
  connection: BackendConnection;
  snapshot: BackendCatalog;
  /** The merged catalog holding this one backend, as the core publishes it. */
  catalog(): Catalog;
  close(): Promise<void>;
}

/**
 * Connects a server from `factory` as backend `id` (`protocol`: `legacy` for
 * the 2025 handshake, `2026-07-28` pinned), served by the SDK's own entry for
 * one wire that answers both eras, and publishes its catalog.
 */
export async function connectInProcess(
  id: string,
  factory: () => McpServer,
  options: { protocol?: 'legacy' | '2026-07-28'; proxy?: Record<string, unknown> } = {},
): Promise<InProcessBackend> {
  const config = makeConfig({
    proxy: options.proxy ?? {},
    mcpServers: { [id]: { command: 'in-process', protocol: options.protocol ?? 'legacy' } },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const served = serveStdio(factory, { transport: serverSide });
  const connection = new BackendConnection({
    config: config.backends[0]!,
    proxy: config.proxy,
    environment: {},
    clientInfo: { name: 'switchboard-unit', version: '0.0.0' },
    stderrTail: new LineTail(),
    transport: async () => ({ transport: clientSide, pid: () => undefined }),
  });
  await connection.connect();
  const snapshot = await connection.listCatalog();
  const publisher = new CatalogPublisher(
    {
      prefixOf: () => id,
      snapshotOf: () => snapshot,
      options: () => ({ separator: config.proxy.separator, maxItems: config.proxy.maxCatalogItems }),
    },
    () => undefined,
  );
  publisher.commit(publisher.check(id, snapshot));
  return {
    connection,
    snapshot,
    catalog: () => publisher.catalog,
    async close() {
      await connection.close();
      await served.close();
    },
  };
}
