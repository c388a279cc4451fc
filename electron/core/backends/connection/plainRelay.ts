/**
 * A plain tools/call to a 2026-07-28 backend, relayed past the SDK client's
 * request machinery (issue 39). The SDK's `request` registers handlers,
 * classifies every inbound message with zod and validates each result against
 * its wire schema before the PASSTHROUGH validator we give it; the profile of
 * a proxied call (bench/hopProfile.ts, docs/benchmarks.md) put that among the
 * largest costs left on the backend side. Here the request goes to the very
 * transport the SDK client talks over (so sessions, auth, `Mcp-Method` and
 * `Mcp-Name` headers, SSE answers and the stream-end watch are unchanged),
 * enveloped by the client itself, under an id of ours; its answer is taken
 * off the transport before the client sees it and decoded once.
 *
 * What the SDK does is kept, step for step (src Protocol
 * `_requestWithSchemaViaCodec`): the signal (an abort cancels: the request's
 * own stream aborted on a per-request-stream transport, else
 * `notifications/cancelled`), the timeout (`Request timed out`), error answers
 * as `ProtocolError.fromError`, a closed connection as `Connection closed`.
 * A result of the plain shape (resultType `complete`, text content,
 * structured content, isError, a server identity in `_meta`) is what the
 * wire schema accepts, so it is lifted without it; any other answer
 * (`input_required`, other content, a malformed result) is decoded by the
 * SDK's own codec, with its errors. A call that asks for progress, mirrors
 * `x-mcp-header` arguments, or talks to a 2025-era backend takes the SDK
 * client as before, and `SWITCHBOARD_FULL_PATH=1` sends every call there (the
 * differential test compares the two).
 */
import {
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SERVER_INFO_META_KEY,
  type CallToolRequestParams,
  type CallToolResult,
  type Client,
  type InputRequiredResult,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';

/** The environment variable that sends every call the full path (`1`): frontend and backend alike. */
export const FULL_PATH_ENV = 'SWITCHBOARD_FULL_PATH';

/** Ids of relayed requests: strings, so they never meet the SDK's numeric ones (nor its listen ids). */
const ID_PREFIX = 'switchboard-plain-';

/** Keys of a plain result as a 2026-07-28 backend sends it. */
const PLAIN_KEYS = new Set(['resultType', 'content', 'structuredContent', 'isError', '_meta']);

/** How one relayed call is made (the queued task's signal and the SDK's own timeout). */
export interface RelayOptions {
  signal: AbortSignal;
  timeout: number;
}

/** What the SDK client offers that the relay borrows (members it keeps private by name only). */
interface ClientInternals {
  _envelopeOutbound(message: JSONRPCMessage): JSONRPCMessage;
  _negotiatedWireCodec(): {
    decodeResult(
      method: string,
      raw: unknown,
    ):
      | { kind: 'complete'; result: unknown }
      | { kind: 'invalid'; error: Error }
      | { kind: 'input_required'; inputRequests: unknown; requestState?: string; _meta?: unknown }
      | { kind: string };
  };
}

type Settle = (answer: { result: unknown } | { error: Error }) => void;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether the SDK's 2026-07-28 wire schema would take `raw` as a complete
 * tools/call result: only shapes that are plainly valid pass; anything else
 * is decoded by the SDK.
 */
function isPlainComplete(raw: unknown): raw is Record<string, unknown> {
  if (!isPlainObject(raw) || raw['resultType'] !== 'complete' || !Array.isArray(raw['content'])) return false;
  for (const key of Object.keys(raw)) if (!PLAIN_KEYS.has(key)) return false;
  if ('isError' in raw && typeof raw['isError'] !== 'boolean') return false;
  if ('structuredContent' in raw && !isPlainObject(raw['structuredContent'])) return false;
  if ('_meta' in raw) {
    const meta = raw['_meta'];
    if (!isPlainObject(meta) || Object.keys(meta).length !== 1) return false;
    const info = meta[SERVER_INFO_META_KEY];
    if (!isPlainObject(info) || typeof info['name'] !== 'string' || typeof info['version'] !== 'string') return false;
    if (Object.keys(info).length !== 2) return false;
  }
  for (const block of raw['content'] as unknown[]) {
    if (!isPlainObject(block) || block['type'] !== 'text' || typeof block['text'] !== 'string') return false;
    if (Object.keys(block).length !== 2) return false;
  }
  return true;
}

/** The relay of one connection; see the module comment. */
export class PlainRelay {
  private readonly pending = new Map<string, Settle>();
  private next = 0;

  private constructor(
    private readonly client: Client,
    private readonly transport: Transport,
  ) {}

  /**
   * Installs the relay on a connected client's transport (after the
   * handshake, so the client's own delivery is in place); undefined when the
   * full path is asked for.
   */
  static attach(client: Client): PlainRelay | undefined {
    const transport = client.transport;
    if (process.env[FULL_PATH_ENV] === '1' || !transport?.onmessage) return undefined;
    const relay = new PlainRelay(client, transport);
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const id = (message as { id?: unknown }).id;
      if (typeof id === 'string' && !('method' in message)) {
        const settle = relay.pending.get(id);
        if (settle) return relay.answer(id, settle, message);
      }
      return deliver(message, extra);
    };
    return relay;
  }

  /** Whether a call may take the relay: a 2026-07-28 backend, no progress asked for. */
  takes(onprogress: unknown): boolean {
    return onprogress === undefined && this.client.getProtocolEra() === 'modern';
  }

  /** Every call still waiting fails as the SDK's would when its connection closes. */
  closed(): void {
    const error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed');
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const settle of waiting) settle({ error });
  }

  /** tools/call, relayed; resolves to the result as the SDK client would, or rejects with its error. */
  call(params: CallToolRequestParams, options: RelayOptions): Promise<CallToolResult | InputRequiredResult> {
    const { signal, timeout } = options;
    if (signal.aborted) {
      const reason: unknown = signal.reason;
      return Promise.reject(
        reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason)),
      );
    }
    const internals = this.client as unknown as ClientInternals;
    const id = `${ID_PREFIX}${this.next++}`;
    const outbound = internals._envelopeOutbound({ jsonrpc: '2.0', id, method: 'tools/call', params });
    const perRequest = (this.transport as { hasPerRequestStream?: boolean }).hasPerRequestStream === true;
    const requestAbort = perRequest ? new AbortController() : undefined;
    return new Promise<CallToolResult | InputRequiredResult>((resolve, reject) => {
      const timeoutError = (): SdkError => new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout });
      const timer = setTimeout(() => cancel(timeoutError()), timeout);
      const done = (): void => {
        this.pending.delete(id);
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
      };
      const cancel = (reason: unknown): void => {
        if (!this.pending.has(id)) return;
        done();
        if (requestAbort) requestAbort.abort();
        else {
          const cancelled = internals._envelopeOutbound({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: String(reason) },
          });
          this.transport.send(cancelled).catch(() => undefined);
        }
        reject(reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason)));
      };
      const onAbort = (): void => cancel(signal.reason);
      this.pending.set(id, (answer) => {
        done();
        if (signal.aborted) return;
        if ('error' in answer) return reject(answer.error);
        resolve(answer.result as CallToolResult | InputRequiredResult);
      });
      signal.addEventListener('abort', onAbort, { once: true });
      this.transport
        .send(outbound, requestAbort ? { requestSignal: requestAbort.signal } : undefined)
        .catch((error: unknown) => {
          if (!this.pending.has(id)) return;
          done();
          reject(error instanceof Error ? error : new Error(String(error)));
        });
    });
  }

  /** The backend's answer to a relayed call, decoded as the SDK would. */
  private answer(id: string, settle: Settle, message: JSONRPCMessage): void {
    this.pending.delete(id);
    if ('error' in message) {
      const { code, message: text, data } = message.error;
      return settle({ error: ProtocolError.fromError(code, text, data) });
    }
    const raw = (message as { result?: unknown }).result;
    if (isPlainComplete(raw)) {
      const { resultType: _complete, ...lifted } = raw;
      return settle({ result: lifted });
    }
    const decoded = (this.client as unknown as ClientInternals)._negotiatedWireCodec().decodeResult('tools/call', raw);
    if ('error' in decoded) return settle({ error: decoded.error });
    if ('result' in decoded) return settle({ result: decoded.result });
    if (!('inputRequests' in decoded)) {
      // The SDK's answer to a kind it has no use for (Protocol `_resolveNonCompleteResult`).
      const text = `Unsupported result type '${decoded.kind}' for tools/call`;
      return settle({
        error: new SdkError(SdkErrorCode.UnsupportedResultType, text, {
          resultType: decoded.kind,
          method: 'tools/call',
        }),
      });
    }
    // What the SDK hands back for an input_required answer when the caller takes it (allowInputRequired).
    const { inputRequests, requestState, _meta: meta } = decoded;
    settle({
      result: {
        resultType: 'input_required',
        inputRequests,
        ...(requestState !== undefined && { requestState }),
        ...(meta !== undefined && { _meta: meta }),
      },
    });
  }
}
