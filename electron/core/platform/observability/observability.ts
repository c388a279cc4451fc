/**
 * The seam between the core and whatever observes it: metrics, traces and
 * request-scoped logs. The core calls it at three places only (a client's
 * request at the HTTP endpoint, each call relayed to a backend, each routed
 * request's outcome) and the host hands it what to read at scrape time; in
 * laptop mode it is `NO_OBSERVABILITY`, which does nothing and loads nothing.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { BackendHealth } from '../../../../shared/model/health.js';

/**
 * Who made a request. Laptop mode knows client profiles only (`kind: 'client'`,
 * the profile's id); the team gateway adds signed-in people (`kind: 'person'`)
 * and passes theirs here. Only a hash of `id` ever leaves the process.
 */
export interface Principal {
  kind: 'client' | 'person';
  id: string;
}

/** One client request as the HTTP endpoint sees it, before it is handled. */
export interface ClientRequest {
  /** The JSON-RPC method (`tools/call`), or the HTTP method for a bodiless GET/DELETE. */
  method: string;
  era: 'legacy' | 'modern';
  principal: Principal;
  /** The request's headers: a `traceparent` in them becomes the parent of its span. */
  headers: IncomingHttpHeaders;
}

/** One call relayed to a backend. */
export interface BackendCall {
  /** The backend's id. */
  server: string;
  /** `tools/call`, `prompts/get`, `resources/read`, `completion/complete`. */
  kind: string;
  /** The backend's own name of the tool or prompt, or the resource's URI. */
  item: string;
  principal: Principal;
}

/** How a routed request ended (an audit entry carries these fields). */
export interface RoutedOutcome {
  backend: string;
  kind: string;
  item: string;
  outcome: 'ok' | 'error' | 'sandbox_blocked' | 'denied' | 'timeout' | 'cancelled';
  errorCode?: string | number | undefined;
  durationMs: number;
}

/** What metrics read when scraped: nothing is counted on the hot path for these. */
export interface MetricsSource {
  health(): readonly BackendHealth[];
  /** Every task the proxy holds, by status. */
  taskStatuses(): Iterable<string>;
  /** Open 2025-era sessions. */
  sessions(): number;
  /** Whether `server` serves a tool of that (original) name in the catalog now: other names are bucketed. */
  hasTool(server: string, tool: string): boolean;
}

/** What the HTTP endpoint does with `/metrics`. */
export interface MetricsRoute {
  /** Answers the request: 401 without an accepted token, else the metrics in Prometheus's text format. */
  serve(req: IncomingMessage, res: ServerResponse, isMainToken: (token: string) => boolean): Promise<void>;
}

/** Metrics, traces and request-scoped logs of one process. */
export interface Observability {
  /** Runs one client request (its span, its request id, its counters); `res` says when it ended. */
  clientRequest<T>(request: ClientRequest, res: ServerResponse, run: () => Promise<T>): Promise<T>;
  /** Runs one call to a backend (its child span, carried to HTTP backends as `traceparent`). */
  backendCall<T>(call: BackendCall, run: () => Promise<T>): Promise<T>;
  /** Counts a routed request's outcome and latency. */
  routed(outcome: RoutedOutcome): void;
  /** Where scrapes read health, tasks and sessions (the host sets it once the core runs). */
  watch(source: MetricsSource): void;
  /** `/metrics`, when metrics are on (absent: the endpoint answers 404). */
  readonly metrics: MetricsRoute | undefined;
  /** Sends what waits (spans) and stops. */
  shutdown(): Promise<void>;
}

/** Observes nothing: laptop mode. */
export const NO_OBSERVABILITY: Observability = {
  clientRequest: (_request, _res, run) => run(),
  backendCall: (_call, run) => run(),
  routed: () => undefined,
  watch: () => undefined,
  metrics: undefined,
  shutdown: async () => undefined,
};
