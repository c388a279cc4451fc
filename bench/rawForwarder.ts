// A floor for the proxy hop (bench/hopCompare.ts only): the least an HTTP proxy in Node can do
// per call. It forwards each request's bytes to one backend URL over a keep-alive agent and
// pipes the answer back, parsing nothing: no MCP, no JSON, no token check. What it costs per
// call is what node:http itself costs on both sides of a hop.
//   node --import tsx bench/rawForwarder.ts BACKEND_URL   (prints "LISTENING <url>")
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const backend = new URL(process.argv[2] ?? '');
const agent = new Agent({ keepAlive: true });

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const headers = { ...req.headers, host: backend.host, 'content-length': String(body.length) };
    delete headers.authorization;
    const out = request(backend, { method: req.method, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    res.on('close', () => {
      if (!res.writableFinished) out.destroy();
    });
    out.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(`LISTENING http://127.0.0.1:${port}/mcp`);
});
process.stdin.resume();
process.stdin.once('end', () => process.exit(0));
process.once('SIGTERM', () => process.exit(0));
