import { describe, expect, it } from 'vitest';
import { Metrics } from '../../../../../electron/core/platform/observability/metrics.js';
import type {
  MetricsSource,
  RoutedOutcome,
} from '../../../../../electron/core/platform/observability/observability.js';

/** A core with one server `s` serving tool `known`. */
const source: MetricsSource = {
  health: () => [],
  taskStatuses: () => ['working', 'working', 'completed'],
  sessions: () => 2,
  hasTool: (server, tool) => server === 's' && tool === 'known',
};

const call = (item: string, extra: Partial<RoutedOutcome> = {}): RoutedOutcome => ({
  backend: 's',
  kind: 'tools/call',
  item,
  outcome: 'ok',
  durationMs: 12,
  ...extra,
});

describe('Metrics', () => {
  it('labels latency by the tool only when the catalog has it; other names share one series', async () => {
    const metrics = new Metrics();
    metrics.watch(source);
    metrics.routed(call('known'));
    for (let i = 0; i < 50; i++) metrics.routed(call(`made-up-${i}`));
    const { body } = await metrics.text();
    expect(body).toContain('switchboard_request_duration_seconds_count{server="s",kind="tools/call",tool="known"} 1');
    expect(body).toContain('switchboard_request_duration_seconds_count{server="s",kind="tools/call",tool="other"} 50');
    expect(body).not.toContain('made-up');
  });

  it('counts errors by code: Switchboard codes and JSON-RPC numbers pass, anything else is other', async () => {
    const metrics = new Metrics();
    metrics.routed(call('known', { outcome: 'timeout', errorCode: 'timeout' }));
    metrics.routed(call('known', { outcome: 'error', errorCode: -32602 }));
    metrics.routed(call('known', { outcome: 'error', errorCode: 'a code the backend chose' }));
    metrics.routed(call('known', { outcome: 'denied' }));
    metrics.routed(call('known', { outcome: 'cancelled' }));
    const { body } = await metrics.text();
    for (const code of ['timeout', '-32602', 'other', 'denied']) {
      expect(body).toContain(`switchboard_errors_total{server="s",code="${code}"} 1`);
    }
    expect(body).not.toContain('code="cancelled"');
  });

  it('counts requests by method, unknown methods as other', async () => {
    const metrics = new Metrics();
    metrics.request('tools/call', 'modern');
    metrics.request('x/made-up', 'legacy');
    const { body } = await metrics.text();
    expect(body).toContain('switchboard_requests_total{method="tools/call",era="modern"} 1');
    expect(body).toContain('switchboard_requests_total{method="other",era="legacy"} 1');
  });

  it('reads sessions and tasks by status from the core when scraped', async () => {
    const metrics = new Metrics();
    metrics.watch(source);
    const { body } = await metrics.text();
    expect(body).toMatch(/^switchboard_sessions 2$/m);
    expect(body).toContain('switchboard_tasks{status="working"} 2');
    expect(body).toContain('switchboard_tasks{status="failed"} 0');
  });

  it('counts restarts and distinct sandbox refusals once, as the core reports them growing', async () => {
    const health = { id: 's', status: 'up', restarts: 1, outstandingRequests: 3 };
    let blocked = [{ kind: 'connect', target: 'evil.example:443' }];
    const metrics = new Metrics();
    metrics.watch({
      ...source,
      health: () => [{ ...health, sandbox: { blocked } }] as unknown as ReturnType<MetricsSource['health']>,
    });
    await metrics.text();
    health.restarts = 2;
    blocked = [...blocked, { kind: 'read', target: '/home/u/.ssh' }];
    const { body } = await metrics.text();
    expect(body).toContain('switchboard_backend_restarts_total{server="s"} 2');
    expect(body).toContain('switchboard_sandbox_refusals_total{server="s",kind="connect"} 1');
    expect(body).toContain('switchboard_sandbox_refusals_total{server="s",kind="read"} 1');
    expect(body).toContain('switchboard_backend_queue_depth{server="s"} 3');
    expect(body).toContain('switchboard_backend_state{server="s",state="up"} 1');
  });
});
