/**
 * Observability when some of it is on: each client request gets a request id
 * (log lines on its path carry it), a span when tracing is on, a count when
 * metrics are, and an access line when logs are JSON. Parts left off cost a
 * branch each.
 */
import type { ServerResponse } from 'node:http';
import type { Metrics } from './metrics.js';
import type { JsonLog } from './jsonLog.js';
import type {
  BackendCall,
  ClientRequest,
  MetricsRoute,
  MetricsSource,
  Observability,
  RoutedOutcome,
} from './observability.js';
import { principalHash } from './principal.js';
import { inRequest, newRequestId } from './requestScope.js';
import type { Tracing } from './tracing.js';

/** The parts in force. */
export interface ObservabilityParts {
  metrics?: { metrics: Metrics; route: MetricsRoute } | undefined;
  tracing?: Tracing | undefined;
  /** Set when logs are JSON: one access line per client request. */
  accessLog?: JsonLog | undefined;
}

export class ActiveObservability implements Observability {
  readonly metrics: MetricsRoute | undefined;

  constructor(private readonly parts: ObservabilityParts) {
    this.metrics = parts.metrics?.route;
  }

  clientRequest<T>(request: ClientRequest, res: ServerResponse, run: () => Promise<T>): Promise<T> {
    const requestId = newRequestId();
    const started = performance.now();
    res.setHeader('x-request-id', requestId);
    this.parts.metrics?.metrics.request(request.method, request.era);
    const { accessLog, tracing } = this.parts;
    if (accessLog) res.once('close', () => accessLine(accessLog, request, requestId, res, started));
    return inRequest(requestId, () => (tracing ? tracing.clientRequest(request, requestId, res, run) : run()));
  }

  backendCall<T>(call: BackendCall, run: () => Promise<T>): Promise<T> {
    return this.parts.tracing ? this.parts.tracing.backendCall(call, run) : run();
  }

  routed(outcome: RoutedOutcome): void {
    this.parts.metrics?.metrics.routed(outcome);
  }

  watch(source: MetricsSource): void {
    this.parts.metrics?.metrics.watch(source);
  }

  async shutdown(): Promise<void> {
    await this.parts.tracing?.shutdown();
  }
}

/** One JSON line per client request: method, era, who (hashed), status, time taken. */
function accessLine(
  log: JsonLog,
  request: ClientRequest,
  requestId: string,
  res: ServerResponse,
  started: number,
): void {
  inRequest(requestId, () =>
    log.event(res.statusCode >= 500 ? 'warn' : 'info', 'request', {
      method: request.method,
      era: request.era,
      principal: principalHash(request.principal),
      status: res.statusCode,
      aborted: !res.writableFinished || undefined,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    }),
  );
}
