/**
 * Which of our in-flight calls a 2025-era backend's server-to-client request
 * (`elicitation/create`, `sampling/createMessage`, `roots/list`) belongs to.
 *
 * The wire does not say: the request carries no reference to the call that
 * caused it, and over stdio (or a legacy SSE stream) every request shares one
 * channel. Over Streamable HTTP, though, a request the backend sends on our
 * call's POST response stream (any request made with `relatedRequestId`, as
 * the SDKs do for `sendRequest` / `ctx.mcpReq.send`) is read inside the async
 * context of that call's `send()`, so an `AsyncLocalStorage` store set around
 * the call names it exactly (the 2025-06-18 spec lets a server send requests
 * on that stream before the response, and says they SHOULD relate to the
 * originating request: "Sending Messages to the Server" in
 * https://modelcontextprotocol.io/specification/2025-06-18/basic/transports).
 * The rule, in order:
 *  1. the async context, when it names a call in flight on this backend;
 *  then, among the candidates: the calls in flight not waiting for their
 *  frontend's answer to an input request they made (a 2025 backend's call is
 *  blocked on that request of its own, so it is not the author of a new one;
 *  requests it sends together arrive within the relay's batch window, before
 *  the call counts as waiting, see TrackedCall.awaitingInput), or all calls
 *  in flight when every one is waiting:
 *  2. the only candidate (sound: both stdio and HTTP deliver the request
 *     before that call's response);
 *  3. all candidates come from one frontend (one 2025 session): the oldest,
 *     since the same client answers either way;
 *  4. otherwise refuse, that request only: guessing could show one user's
 *     question to another.
 * So a call abandoned by its client (parked for a 2026-07-28 client's retry
 * that never comes) does not make other clients' calls ambiguous.
 *
 * These input requests (INPUT_METHODS: MCP 2025-11-25 elicitation, sampling,
 * roots) are the ones a person or the calling client must answer; the
 * frontend side (frontend/relay) puts them to the client.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ProtocolError, ProtocolErrorCode, type Client, type ClientCapabilities } from '@modelcontextprotocol/client';

/** The server-to-client requests a backend may need answered by a person or the client. */
export const INPUT_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const;

/** One of {@link INPUT_METHODS}. */
export type InputMethod = (typeof INPUT_METHODS)[number];

/**
 * Client capabilities declared to every backend. A 2025 backend reads them
 * once, at `initialize` (server-everything only registers its elicitation and
 * sampling tools when they are declared), so they are declared up front and
 * each request is then checked against the frontend that made the call.
 * Form-mode elicitation and plain sampling only: URL mode and sampling with
 * tools would invite requests most frontends cannot answer. No
 * `roots.listChanged`: the roots we give outside calls never change.
 */
export const BACKEND_INPUT_CAPABILITIES: ClientCapabilities = {
  elicitation: { form: {} },
  sampling: {},
  roots: {},
};

/** A call as the tracker sees it. */
export interface TrackedCall {
  /** The frontend that made the call (undefined: none can be asked). */
  readonly frontendKey: object | undefined;
  /**
   * Whether the call is waiting for its frontend's answer to an input request
   * it made, put to the frontend a moment ago at least (see the rule above).
   */
  readonly awaitingInput: boolean;
  /** Delivers one of the backend's input requests to that frontend; resolves with its answer. */
  relay(method: InputMethod, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<unknown>;
}

/** How a backend's input request was matched to a call. */
export type Attribution = 'byScope' | 'bySingle' | 'bySameFrontend' | 'ambiguous' | 'outsideCall';

const callScope = new AsyncLocalStorage<TrackedCall>();

/** The calls in flight on one backend, and the handlers for its input requests. */
export class CallTracker {
  /** In insertion order, so the first is the oldest. */
  private readonly inflight = new Set<TrackedCall>();
  /**
   * How requests were attributed so far (for logs and tests); `pastWaiting`:
   * those attributed (or refused) after leaving out calls awaiting input.
   */
  readonly stats: Record<Attribution | 'pastWaiting', number> = {
    byScope: 0,
    bySingle: 0,
    bySameFrontend: 0,
    ambiguous: 0,
    outsideCall: 0,
    pastWaiting: 0,
  };

  constructor(
    client: Client,
    private readonly backendId: string,
  ) {
    const handle = (method: InputMethod) => (request: { params?: unknown }, ctx: { mcpReq: { signal: AbortSignal } }) =>
      this.onInputRequest(method, request.params as Record<string, unknown> | undefined, ctx.mcpReq.signal);
    // The SDK client validates elicitation and sampling answers against the era's result schema.
    for (const method of INPUT_METHODS) client.setRequestHandler(method, handle(method) as never);
  }

  /** Calls in flight right now. */
  get size(): number {
    return this.inflight.size;
  }

  /**
   * Runs `send` (the backend request of `call`) with `call` in flight and in
   * the async context, so input requests arriving meanwhile can find it.
   */
  async run<T>(call: TrackedCall, send: () => Promise<T>): Promise<T> {
    this.inflight.add(call);
    try {
      return await callScope.run(call, send);
    } finally {
      this.inflight.delete(call);
    }
  }

  /**
   * Applies the attribution rule (see the module comment). `candidates`: how
   * many calls were left to choose from after rule 1; `pastWaiting`: whether
   * calls awaiting input were left out.
   */
  resolve(): { call?: TrackedCall; how: Attribution; candidates: number; pastWaiting: boolean } {
    const scoped = callScope.getStore();
    if (scoped && this.inflight.has(scoped)) return { call: scoped, how: 'byScope', candidates: 1, pastWaiting: false };
    const calls = [...this.inflight];
    const free = calls.filter((call) => !call.awaitingInput);
    const candidates = free.length > 0 ? free : calls;
    const found = (how: Attribution, call?: TrackedCall) => ({
      ...(call ? { call } : {}),
      how,
      candidates: candidates.length,
      pastWaiting: candidates.length < calls.length,
    });
    const [oldest] = candidates;
    if (!oldest) return found('outsideCall');
    if (candidates.length === 1) return found('bySingle', oldest);
    const key = oldest.frontendKey;
    if (key !== undefined && candidates.every((call) => call.frontendKey === key)) {
      return found('bySameFrontend', oldest);
    }
    return found('ambiguous');
  }

  private async onInputRequest(
    method: InputMethod,
    params: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<unknown> {
    const { call, how, candidates, pastWaiting } = this.resolve();
    this.stats[how]++;
    if (pastWaiting) this.stats.pastWaiting++;
    if (call) return call.relay(method, params, signal);
    // Servers often ask for roots right after initialize (server-everything
    // does, and caches the answer per session). No client is asking then:
    // answer that there are none rather than fail the server's setup.
    if (method === 'roots/list' && how === 'outsideCall') return { roots: [] };
    throw new ProtocolError(
      ProtocolErrorCode.InternalError,
      how === 'ambiguous'
        ? `mcp-switchboard cannot tell which of ${candidates} calls in flight to "${this.backendId}" this ${method} belongs to (several clients are using this server at once); it was not shown to any client`
        : `mcp-switchboard relays ${method} only while a client's request to "${this.backendId}" is in flight`,
    );
  }
}
