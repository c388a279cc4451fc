/**
 * The HTTP endpoint's 2026-07-28 `subscriptions/listen` streams. The SDK
 * acknowledges any URI, so the filter is checked here first: an unknown URI
 * or a template instance gets an in-band invalid-params error and no
 * acknowledgement; accepted URIs are subscribed upstream before the SDK
 * acknowledges, and released when the stream closes, however it ends. A
 * stream is ended when its client loses access (token revoked, resource
 * hidden): the client re-listens and is refused.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProtocolError } from '@modelcontextprotocol/server';
import { listenContext } from './boundedBus.js';
import type { FrontendHub } from '../server/frontendHub.js';
import { sendJson } from './httpJson.js';
import { listensForTools, listenUris } from '../stdio/stdioListen.js';
import type { TasksService } from '../../api/services.js';
import { openTaskListen, wantsTaskListen } from './taskListen.js';

/** One open listen stream. */
interface ListenStream {
  client: string;
  uris: string[];
  res: ServerResponse;
}

/** What the streams need of the endpoint. */
export interface ListenStreamsHost {
  hub: FrontendHub;
  /** The tasks a `taskIds` listen follows (taskListen.ts; the SDK's router drops that filter). */
  tasks: TasksService;
  /** A client's tools/list fingerprint (the bus sends tools list_changed when it moves). */
  fingerprint(client: string): string;
  /** A stream hearing tools/list_changed opened for `client` (search+load may add to its list); returns its end. */
  listenTools(client: string): () => void;
  /** The SDK's handler of 2026 requests. */
  handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void>;
}

/** The open listen streams of one HTTP endpoint. */
export class ListenStreams {
  private readonly streams = new Set<ListenStream>();

  constructor(private readonly host: ListenStreamsHost) {}

  /** Serves one `subscriptions/listen` request. */
  async serve(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    client: string,
    caller?: string,
  ): Promise<void> {
    if (wantsTaskListen(body)) return this.serveTasks(res, body as { id?: string | number }, client);
    const id = (body as { id?: string | number }).id ?? null;
    const uris = listenUris(body);
    const { hub } = this.host;
    let sink;
    try {
      sink = await hub.listen(`listen:${randomUUID()}`, client, uris, caller);
    } catch (error) {
      const { code, message, data } = error as ProtocolError;
      return sendJson(res, 200, { jsonrpc: '2.0', id, error: { code, message, data } });
    }
    const stream: ListenStream = { client, uris, res };
    this.streams.add(stream);
    // A client that hears tools/list_changed re-lists: search+load may add to its list.
    const unlisten = listensForTools(body) ? this.host.listenTools(client) : undefined;
    res.on('close', () => {
      this.streams.delete(stream);
      hub.endListen(sink);
      unlisten?.();
    });
    // The bus learns this stream (its response, client, known tools/list) through the async context.
    const context = { res, client, tools: this.host.fingerprint(client), caller };
    return listenContext.run(context, () => this.host.handle(req, res, body));
  }

  /** Serves a task listen (taskListen.ts) as an SSE stream of its own, until the client closes it. */
  private async serveTasks(res: ServerResponse, body: { id?: string | number }, client: string): Promise<void> {
    const sse = (message: unknown): void => {
      if (!res.headersSent)
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' });
      res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    };
    let listen;
    try {
      listen = await openTaskListen(this.host.tasks, client, body, sse);
    } catch (error) {
      if (res.headersSent) return void res.destroy();
      const { code, message, data } = error as ProtocolError;
      return sendJson(res, 200, { jsonrpc: '2.0', id: body.id ?? null, error: { code, message, data } });
    }
    if (!listen.honoured || res.destroyed) {
      listen.stop();
      return void res.end();
    }
    const stream: ListenStream = { client, uris: [], res };
    this.streams.add(stream);
    res.on('close', () => {
      this.streams.delete(stream);
      listen.stop();
    });
  }

  /** Ends every stream of a client (its token was revoked or rotated). */
  endClient(client: string): void {
    for (const stream of this.streams) if (stream.client === client) stream.res.destroy();
  }

  /** Ends the streams naming a resource their client may no longer see. */
  endForbidden(): void {
    for (const stream of this.streams) {
      if (!this.host.hub.mayListen(stream.client, stream.uris)) stream.res.destroy();
    }
  }
}
