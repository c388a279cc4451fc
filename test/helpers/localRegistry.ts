/**
 * A local MCP registry for tests: the documented read endpoints of the
 * registry's OpenAPI document (/v0.1/servers with search, cursor, limit and
 * version=latest; /v0.1/servers/{name}/versions; /v0.1/servers/{name}/versions/{version}),
 * the {servers, metadata: {nextCursor, count}} envelope, and ETag validators
 * (If-None-Match answers 304). Serves whatever documents a test gives it.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running local registry. */
export interface LocalRegistry {
  url: string;
  /** Requests seen, as `METHOD path?query` (`-> 304` appended for revalidated ones). */
  requests: string[];
  /** Publishes a document (a new version of its name becomes the latest). */
  publish(document: Record<string, unknown>): void;
  close(): Promise<void>;
}

function send(req: IncomingMessage, res: ServerResponse, status: number, body: unknown, log: string[]): void {
  const text = JSON.stringify(body);
  const etag = `"${createHash('sha256').update(text).digest('hex').slice(0, 16)}"`;
  if (status === 200 && req.headers['if-none-match'] === etag) {
    log[log.length - 1] += ' -> 304';
    res.writeHead(304, { etag }).end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json', etag }).end(text);
}

/** Starts a local registry on 127.0.0.1 serving `documents` (several versions of a name: the last is latest). */
export async function startLocalRegistry(
  documents: Record<string, unknown>[],
  /** Files served at `/files/<name>` (e.g. the .mcpb of an mcpb package). */
  files: Record<string, Buffer> = {},
): Promise<LocalRegistry> {
  const byName = new Map<string, Record<string, unknown>[]>();
  const publish = (document: Record<string, unknown>): void => {
    const name = String(document['name']);
    byName.set(name, [...(byName.get(name) ?? []), document]);
  };
  documents.forEach(publish);
  const wrap = (document: Record<string, unknown>, isLatest: boolean) => ({
    server: document,
    _meta: {
      'io.modelcontextprotocol.registry/official': {
        status: 'active',
        publishedAt: '2025-11-01T10:00:00Z',
        updatedAt: '2025-11-01T10:00:00Z',
        isLatest,
      },
    },
  });
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (req.method !== 'GET') return send(req, res, 405, { error: 'method not allowed' }, requests);
    const file = /^\/files\/([^/]+)$/.exec(url.pathname)?.[1];
    if (file !== undefined && files[file]) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(files[file]);
      return;
    }
    if (url.pathname === '/v0.1/servers') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const version = url.searchParams.get('version');
      const limit = Math.max(1, Number(url.searchParams.get('limit') ?? 30));
      const all = [...byName.entries()].flatMap(([, versions]) =>
        versions.map((doc, i) => ({ doc, latest: i === versions.length - 1 })),
      );
      const matching = all
        .filter(({ doc }) => String(doc['name']).toLowerCase().includes(search))
        .filter(({ doc, latest }) => (version === 'latest' ? latest : !version || doc['version'] === version));
      const start = url.searchParams.has('cursor') ? Number(url.searchParams.get('cursor')) : 0;
      const page = matching.slice(start, start + limit);
      const next = start + limit < matching.length ? String(start + limit) : undefined;
      return send(
        req,
        res,
        200,
        {
          servers: page.map(({ doc, latest }) => wrap(doc, latest)),
          metadata: { count: page.length, ...(next ? { nextCursor: next } : {}) },
        },
        requests,
      );
    }
    const match = /^\/v0\.1\/servers\/([^/]+)\/versions(?:\/([^/]+))?$/.exec(url.pathname);
    if (match) {
      const name = decodeURIComponent(match[1]!);
      const versions = byName.get(name);
      if (!versions) return send(req, res, 404, { error: 'Server not found' }, requests);
      if (match[2] === undefined) {
        const list = [...versions].reverse().map((doc, i) => wrap(doc, i === 0));
        return send(req, res, 200, { servers: list, metadata: { count: list.length } }, requests);
      }
      const wanted = decodeURIComponent(match[2]);
      const index = wanted === 'latest' ? versions.length - 1 : versions.findIndex((d) => d['version'] === wanted);
      if (index < 0) return send(req, res, 404, { error: 'Server version not found' }, requests);
      return send(req, res, 200, wrap(versions[index]!, index === versions.length - 1), requests);
    }
    send(req, res, 404, { error: 'not found' }, requests);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    publish,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
