/**
 * Prometheus metrics (prom-client), in a registry of their own. Counted as
 * things happen: client requests by method and era, routed requests' errors
 * by code and their latency per server and tool. Read at scrape time from the
 * core (nothing on the hot path): backend health, restarts, queue depth and
 * sandbox refusals per server, open 2025-era sessions, tasks by status. Every
 * label is bounded (metricLabels.ts). Loaded only when metrics are on.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { BackendHealth, BackendStatus } from '../../../../shared/model/health.js';
import type { MetricsSource, RoutedOutcome } from './observability.js';
import { errorCodeLabel, LabelBudget, methodLabel, OTHER } from './metricLabels.js';

const STATES: readonly BackendStatus[] = [
  'connecting',
  'up',
  'degraded',
  'down',
  'disabled',
  'needs-authorization',
  'idle',
];
const TASK_STATES = ['working', 'input_required', 'completed', 'failed', 'cancelled'];
/** Kinds of routed requests whose latency is recorded. */
const TIMED = new Set(['tools/call', 'prompts/get', 'resources/read', 'completion/complete']);
/** Label sets of the latency histogram (server x tool) and of the error counter. */
const MAX_TIMED_SERIES = 2000;
const MAX_ERROR_SERIES = 1000;
/** Seconds: 1 ms to 60 s, where proxied calls land. */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The process's metrics. */
export class Metrics {
  readonly registry = new Registry();
  private source: MetricsSource | undefined;
  private readonly requests: Counter<'method' | 'era'>;
  private readonly errors: Counter<'server' | 'code'>;
  private readonly latency: Histogram<'server' | 'kind' | 'tool'>;
  private readonly timedBudget = new LabelBudget(MAX_TIMED_SERIES);
  private readonly errorBudget = new LabelBudget(MAX_ERROR_SERIES);
  /** Restarts and refusals already counted, per server (the core reports running totals). */
  private readonly counted = new Map<string, { restarts: number; refusals: Set<string> }>();

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'switchboard_requests_total',
      help: 'Client requests to /mcp, by JSON-RPC method and protocol era',
      labelNames: ['method', 'era'],
      registers,
    });
    this.errors = new Counter({
      name: 'switchboard_errors_total',
      help: 'Routed requests that failed, by server and error code (JSON-RPC number or Switchboard code)',
      labelNames: ['server', 'code'],
      registers,
    });
    this.latency = new Histogram({
      name: 'switchboard_request_duration_seconds',
      help: 'Time of routed requests to backends, by server, kind and tool (tools outside the catalog: other)',
      labelNames: ['server', 'kind', 'tool'],
      buckets: BUCKETS,
      registers,
    });
    this.scraped(registers);
  }

  /** Where scrapes read the core's state. */
  watch(source: MetricsSource): void {
    this.source = source;
  }

  /** One client request. */
  request(method: string, era: string): void {
    this.requests.inc({ method: methodLabel(method), era });
  }

  /** One routed request's outcome. */
  routed(entry: RoutedOutcome): void {
    if (entry.outcome !== 'ok' && entry.outcome !== 'cancelled') {
      const code = entry.outcome === 'denied' ? 'denied' : errorCodeLabel(entry.errorCode);
      const labels = this.errorBudget.admit(`${entry.backend}\0${code}`)
        ? { server: entry.backend, code }
        : { server: OTHER, code: OTHER };
      this.errors.inc(labels);
    }
    if (!TIMED.has(entry.kind) || entry.outcome === 'denied') return;
    this.latency.observe(this.timedLabels(entry), entry.durationMs / 1000);
  }

  /** Server, kind and tool, the tool only when the catalog has it, within the series budget. */
  private timedLabels(entry: RoutedOutcome): { server: string; kind: string; tool: string } {
    const named = entry.kind === 'tools/call' || entry.kind === 'prompts/get';
    const known = named && this.source?.hasTool(entry.backend, entry.item) === true;
    const tool = !named ? '' : known ? entry.item : OTHER;
    return this.timedBudget.admit(`${entry.backend}\0${entry.kind}\0${tool}`)
      ? { server: entry.backend, kind: entry.kind, tool }
      : { server: OTHER, kind: entry.kind, tool: OTHER };
  }

  /** The gauges and counters read from the core when scraped. */
  private scraped(registers: Registry[]): void {
    const health = (): readonly BackendHealth[] => this.source?.health() ?? [];
    const state: Gauge<'server' | 'state'> = new Gauge({
      name: 'switchboard_backend_state',
      help: "Each server's state: 1 for the state it is in, 0 for the others",
      labelNames: ['server', 'state'],
      registers,
      collect: () => {
        state.reset();
        for (const backend of health()) {
          for (const status of STATES)
            state.set({ server: backend.id, state: status }, backend.status === status ? 1 : 0);
        }
      },
    });
    const depth: Gauge<'server'> = new Gauge({
      name: 'switchboard_backend_queue_depth',
      help: 'Requests waiting for or in flight to each server (bounded by maxQueue; one at a time with serialize)',
      labelNames: ['server'],
      registers,
      collect: () => {
        depth.reset();
        for (const backend of health()) depth.set({ server: backend.id }, backend.outstandingRequests);
      },
    });
    const restarts: Counter<'server'> = new Counter({
      name: 'switchboard_backend_restarts_total',
      help: 'Times each server was started again after its first start (crash, edit, restart)',
      labelNames: ['server'],
      registers,
      collect: () => {
        for (const backend of health()) {
          const counted = this.countedFor(backend.id);
          if (backend.restarts > counted.restarts)
            restarts.inc({ server: backend.id }, backend.restarts - counted.restarts);
          counted.restarts = Math.max(counted.restarts, backend.restarts);
        }
      },
    });
    const refusals: Counter<'server' | 'kind'> = new Counter({
      name: 'switchboard_sandbox_refusals_total',
      help: 'Distinct accesses a sandboxed server was refused (read, write, connect), as its own messages tell',
      labelNames: ['server', 'kind'],
      registers,
      collect: () => {
        for (const backend of health()) {
          const counted = this.countedFor(backend.id);
          const now = new Set<string>();
          for (const block of backend.sandbox?.blocked ?? []) {
            const key = `${block.kind} ${block.target}`;
            now.add(key);
            if (!counted.refusals.has(key)) refusals.inc({ server: backend.id, kind: block.kind });
          }
          // The core keeps the newest 20: what it dropped cannot come back as new.
          counted.refusals = now;
        }
      },
    });
    const sessions: Gauge = new Gauge({
      name: 'switchboard_sessions',
      help: 'Open 2025-era HTTP sessions (2026-07-28 clients hold none)',
      registers,
      collect: () => sessions.set(this.source?.sessions() ?? 0),
    });
    const tasks: Gauge<'status'> = new Gauge({
      name: 'switchboard_tasks',
      help: 'Tasks the proxy holds, by status',
      labelNames: ['status'],
      registers,
      collect: () => {
        tasks.reset();
        for (const status of TASK_STATES) tasks.set({ status }, 0);
        for (const status of this.source?.taskStatuses() ?? []) tasks.inc({ status });
      },
    });
  }

  private countedFor(server: string): { restarts: number; refusals: Set<string> } {
    let counted = this.counted.get(server);
    if (!counted) this.counted.set(server, (counted = { restarts: 0, refusals: new Set() }));
    return counted;
  }

  /** The metrics in Prometheus's text format, and its content type. */
  async text(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
