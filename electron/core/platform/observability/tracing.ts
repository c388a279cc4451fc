/**
 * OpenTelemetry traces: a SERVER span per client request (its parent the
 * client's own `traceparent`, when it sends one) and a CLIENT span per call
 * relayed to a backend, exported over OTLP/HTTP (JSON) in batches. The
 * active span's context is carried to HTTP backends as `traceparent`
 * (traceHeaders.ts). The principal appears only hashed (principal.ts). This
 * module is the only one importing the OpenTelemetry SDK, and it is loaded
 * only when tracing is configured (openObservability.ts).
 */
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import type { ServerResponse } from 'node:http';
import type { TracingSettings } from '../config/observabilityConfig.js';
import type { BackendCall, ClientRequest } from './observability.js';
import { principalHash } from './principal.js';
import { setTraceInjector } from './traceHeaders.js';

/** How long stopping waits for the last spans to reach the collector. */
const SHUTDOWN_MS = 3000;

/** Span attributes of ours (the MCP method follows OpenTelemetry's MCP conventions). */
export const SPAN_ATTRIBUTES = {
  method: 'mcp.method.name',
  era: 'switchboard.era',
  server: 'switchboard.server',
  tool: 'switchboard.tool',
  kind: 'switchboard.kind',
  outcome: 'switchboard.outcome',
  principal: 'switchboard.principal.hash',
  principalKind: 'switchboard.principal.kind',
  requestId: 'switchboard.request_id',
  status: 'http.response.status_code',
} as const;

/** The traces of one process. */
export class Tracing {
  private readonly provider: NodeTracerProvider;
  private readonly tracer;

  constructor(settings: TracingSettings, version: string) {
    const exporter = new OTLPTraceExporter(
      settings.endpoint === undefined ? {} : { url: `${settings.endpoint.replace(/\/+$/, '')}/v1/traces` },
    );
    this.provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName, [ATTR_SERVICE_VERSION]: version }),
      sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sampleRatio) }),
      // The batch's delay and size follow the OTEL_BSP_* variables.
      spanProcessors: [new BatchSpanProcessor(exporter)],
    });
    this.provider.register({ propagator: new W3CTraceContextPropagator() });
    this.tracer = this.provider.getTracer('mcp-switchboard', version);
    setTraceInjector((headers) => propagation.inject(context.active(), headers));
  }

  /** Runs a client request in its span, which ends when its response closes. */
  clientRequest<T>(request: ClientRequest, requestId: string, res: ServerResponse, run: () => Promise<T>): Promise<T> {
    const parent = propagation.extract(ROOT_CONTEXT, request.headers);
    const span = this.tracer.startSpan(
      request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          [SPAN_ATTRIBUTES.method]: request.method,
          [SPAN_ATTRIBUTES.era]: request.era,
          [SPAN_ATTRIBUTES.principal]: principalHash(request.principal),
          [SPAN_ATTRIBUTES.principalKind]: request.principal.kind,
          [SPAN_ATTRIBUTES.requestId]: requestId,
        },
      },
      parent,
    );
    res.once('close', () => {
      const status = res.statusCode;
      span.setAttribute(SPAN_ATTRIBUTES.status, status);
      span.setAttribute(SPAN_ATTRIBUTES.outcome, !res.writableFinished ? 'aborted' : status < 400 ? 'ok' : 'error');
      if (status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    return context.with(trace.setSpan(parent, span), run);
  }

  /** Runs a backend call in a child span of the active one. */
  async backendCall<T>(call: BackendCall, run: () => Promise<T>): Promise<T> {
    const span = this.tracer.startSpan(`${call.kind} ${call.server}`, {
      kind: SpanKind.CLIENT,
      attributes: {
        [SPAN_ATTRIBUTES.server]: call.server,
        [SPAN_ATTRIBUTES.kind]: call.kind,
        ...(call.kind === 'tools/call' || call.kind === 'prompts/get' ? { [SPAN_ATTRIBUTES.tool]: call.item } : {}),
        [SPAN_ATTRIBUTES.principal]: principalHash(call.principal),
        [SPAN_ATTRIBUTES.principalKind]: call.principal.kind,
      },
    });
    try {
      const result = await context.with(trace.setSpan(context.active(), span), run);
      const toolError = (result as { isError?: unknown } | undefined)?.isError === true;
      ended(span, toolError ? 'tool_error' : 'ok');
      return result;
    } catch (error) {
      // Only the kind of failure: an error's message may quote what a backend was sent.
      ended(span, 'error');
      throw error;
    }
  }

  /** Exports what waits, then stops; a collector that does not answer holds the exit up for SHUTDOWN_MS at most. */
  async shutdown(): Promise<void> {
    setTraceInjector(undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_MS).unref()));
    await Promise.race([this.provider.shutdown().catch(() => undefined), late]);
    clearTimeout(timer);
  }
}

function ended(span: Span, outcome: 'ok' | 'tool_error' | 'error'): void {
  span.setAttribute(SPAN_ATTRIBUTES.outcome, outcome);
  if (outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
