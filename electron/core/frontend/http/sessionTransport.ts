/**
 * A 2025-era session's transport on node:http: the SDK's web-standard
 * streamable HTTP transport, served through the endpoint's own adapter
 * (modernNodeHandler.ts) instead of the SDK's Node transport, which wraps the
 * same web-standard transport in @hono/node-server's adapter. That adapter
 * builds a new listener per request, gives the request a body stream over
 * the socket (already read: the endpoint parsed the body) and reads every
 * answer back through a web stream; the profile of a proxied tools/call
 * (bench/hopProfile.ts, docs/benchmarks.md) showed it among the largest costs
 * of a 2025-era call that are ours to choose.
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
