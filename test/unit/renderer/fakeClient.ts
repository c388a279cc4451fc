/**
 * A small in-memory CoreClient for renderer unit tests: canned handlers per
 * method, a call log, pushed events and a switchable connection state.
 */
import type { CallOutcome, CoreEventMap, EventName, MethodName, ParamsOf, ResultOf } from '../../../shared/contract.js';
import type { ErrorData } from '../../../shared/errors.js';
import type { BridgeClient, ConnectionState } from '../../../renderer/src/bridge/connection.js';

/** A handler: returns the result, or `{ error }` to fail as data. */
export type FakeHandler<M extends MethodName> = (
  params: ParamsOf<M>,
) => ResultOf<M> | { error: ErrorData } | Promise<ResultOf<M> | { error: ErrorData }>;

/** The fake plus test controls. */
export interface FakeClient extends BridgeClient {
  calls: { method: MethodName; params: unknown }[];
  handle<M extends MethodName>(method: M, handler: FakeHandler<M>): void;
  emit<E extends EventName>(event: E, payload: CoreEventMap[E]): void;
  setConnection(state: ConnectionState): void;
  /** How many times `method` was called. */
  count(method: MethodName): number;
}

/** Creates a fake whose unhandled methods answer with an empty list / undefined. */
export function createFakeClient(initial: ConnectionState = 'open'): FakeClient {
  const handlers = new Map<MethodName, FakeHandler<MethodName>>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let state = initial;
  const calls: FakeClient['calls'] = [];
  const defaults: Partial<Record<MethodName, unknown>> = {
    'app.info': {
      version: '0.0.0-test',
      endpointUrl: 'http://127.0.0.1:1/mcp',
      host: 'headless',
      keychain: { available: true },
    },
    'policy.get': { profile: '*', backends: [], items: [] },
    'catalog.access': {
      profile: '*',
      name: 'the main token',
      tools: { inForce: 'all', listed: 0, tokens: 4, reachable: 0, allListed: 0, allTokens: 4, searchTokens: 300 },
      items: [],
    },
    'registry.outdated': [],
    'sandbox.settings': {
      support: { available: true, engine: 'bubblewrap' },
      defaultSandbox: false,
      defaultInForce: false,
    },
  };
  const fake: FakeClient = {
    calls,
    async call(method: MethodName, params?: unknown): Promise<CallOutcome<never>> {
      calls.push({ method, params });
      const handler = handlers.get(method);
      const answer = handler
        ? await handler(params as never)
        : method.endsWith('.list') || method === 'log.query'
          ? []
          : defaults[method];
      if (answer && typeof answer === 'object' && 'error' in answer && !Array.isArray(answer))
        return { ok: false, error: (answer as { error: ErrorData }).error };
      return { ok: true, result: answer as never };
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (payload: unknown) => void);
      return () => set.delete(listener as (payload: unknown) => void);
    },
    connectionState: () => state,
    onConnectionChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    close: () => undefined,
    handle(method, handler) {
      handlers.set(method, handler as unknown as FakeHandler<MethodName>);
    },
    emit(event, payload) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
    setConnection(next) {
      state = next;
      for (const listener of stateListeners) listener(next);
    },
    count: (method) => calls.filter((c) => c.method === method).length,
  };
  return fake;
}
