/**
 * W3C trace context on outgoing requests to HTTP backends. The backend
 * transport (backends/transport/nodeFetch.ts) asks here for headers on every
 * request; until tracing starts there is no injector and nothing is added,
 * so the transport never loads OpenTelemetry itself.
 */

/** Adds `traceparent` (and `tracestate`) of the active span to a header object. */
export type TraceInjector = (headers: Record<string, string>) => void;

let injector: TraceInjector | undefined;

/** Installs (or with `undefined`, removes) the injector: tracing's start and shutdown. */
export function setTraceInjector(next: TraceInjector | undefined): void {
  injector = next;
}

/** Adds the active trace context to `headers`, when tracing is on. */
export function injectTraceContext(headers: Record<string, string>): void {
  injector?.(headers);
}
