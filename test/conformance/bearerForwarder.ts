/**
 * The conformance suite's CLI cannot send an Authorization header, and `serve` answers 401
 * without one: this loopback forwarder adds the bearer token and passes everything else through
 * untouched (method, path, every header including Host and Origin, the body, the streamed
 * response), so `serve`'s own checks (DNS rebinding, protocol headers) are what the suite meets.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

/** A running forwarder: its /mcp URL and how to stop it. */
export interface Forwarder {
  url: string;
  stop(): Promise<void>;
}

/** Forwards one request to `target` with the token added. */
function forward(target: URL, token: string, req: IncomingMessage, res: ServerResponse): void {
  const upstream = request(
    {
      host: target.hostname,
      port: target.port,
      method: req.method,
      path: target.pathname + (req.url?.includes('?') ? req.url.slice(req.url.indexOf('?')) : ''),
      headers: { ...req.headers, authorization: `Bearer ${token}` },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`forwarder: ${error.message}`);
  });
  res.on('close', () => upstream.destroy());
  req.pipe(upstream);
}

/** Starts a forwarder on 127.0.0.1 for the MCP endpoint `targetUrl`. */
export async function startBearerForwarder(targetUrl: string, token: string): Promise<Forwarder> {
  const target = new URL(targetUrl);
  const server = createServer((req, res) => forward(target, token, req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
