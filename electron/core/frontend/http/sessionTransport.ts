/**
 * A 2025-era session's transport on node:http: the SDK's web-standard
 * streamable HTTP transport, served through the endpoint's own adapter
 * (modernNodeHandler.ts) instead of the SDK's Node transport, which wraps the
 * same web-standard transport in @hono/node-server's adapter. That adapter,
 * given a response stream with a chunk ready but not ended (every POST stream
 * of a resumable session opens with its priming event), waits a timer tick
 * before sending anything: about a millisecond on every 2025-era call, the
 * slowdown the resumable streams brought (issue 39, docs/benchmarks.md). Ours
 * writes a stream that ends at once (a call answered at once) whole, in one
 * write, and sends a longer one's priming event within a short bound.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { modernNodeHandler, type ModernNodeHandler } from './modernNodeHandler.js';

/** The SDK's streamable HTTP server transport, answering node:http requests whose body is parsed already. */
export class SessionTransport extends WebStandardStreamableHTTPServerTransport {
  private readonly node: ModernNodeHandler = modernNodeHandler({
    fetch: (request, options) => this.handleRequest(request, options),
  });

  /** Serves one request of the session (`parsedBody` undefined: a GET stream or a DELETE). */
  handleNodeRequest(req: IncomingMessage, res: ServerResponse, parsedBody: unknown): Promise<void> {
    return this.node(req, res, parsedBody);
  }
}
