import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../../../electron/core/platform/config/schema.js';

describe('the observability section', () => {
  it('is all off when absent, and a part is on when named (enabled: false turns it off again)', () => {
    expect(parseConfig({}).config?.observability).toEqual({
      metrics: undefined,
      tracing: undefined,
      logFormat: 'text',
    });
    const { config, problems } = parseConfig({
      observability: { metrics: {}, tracing: { enabled: false }, logFormat: 'json' },
    });
    expect(problems).toEqual([]);
    expect(config?.observability).toEqual({
      metrics: { token: undefined, unauthenticated: false },
      tracing: undefined,
      logFormat: 'json',
    });
    const traced = parseConfig({ observability: { tracing: { endpoint: 'http://collector:4318' } } }).config;
    expect(traced?.observability?.tracing).toEqual({
      endpoint: 'http://collector:4318',
      serviceName: 'mcp-switchboard',
      sampleRatio: 1,
    });
  });

  it('takes a metrics token only as ${VAR} or a keychain secret, never the token itself', () => {
    for (const token of ['${SCRAPE_TOKEN}', { secret: 'metrics-token' }]) {
      expect(parseConfig({ observability: { metrics: { token } } }).problems).toEqual([]);
    }
    const { config, problems } = parseConfig({ observability: { metrics: { token: 'abc123plain' } } });
    expect(config).toBeUndefined();
    expect(problems).toEqual([{ path: 'observability.metrics.token', message: expect.stringMatching(/\$\{VAR\}/) }]);
  });

  it('names each bad field by its dotted path', () => {
    const { problems } = parseConfig({
      observability: {
        metrics: { token: '${T}', unauthenticated: true },
        tracing: { endpoint: 'ftp://x', sampleRatio: 2 },
        logFormat: 'xml',
        colour: true,
      },
    });
    expect(problems.map((problem) => problem.path).sort()).toEqual([
      'observability',
      'observability.logFormat',
      'observability.metrics.unauthenticated',
      'observability.tracing.endpoint',
      'observability.tracing.sampleRatio',
    ]);
  });
});
