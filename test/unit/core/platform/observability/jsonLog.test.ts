import { describe, expect, it } from 'vitest';
import { jsonLog } from '../../../../../electron/core/platform/observability/jsonLog.js';
import { inRequest } from '../../../../../electron/core/platform/observability/requestScope.js';

describe('jsonLog', () => {
  it('writes one JSON object per line, with the request id of the request it is written in', async () => {
    const lines: string[] = [];
    const log = jsonLog((text) => lines.push(text));
    log.info('outside');
    await inRequest('0123456789abcdef', async () => {
      await Promise.resolve();
      log.warn('inside, after an await');
    });
    log.event('error', 'with fields', { status: 503, method: 'tools/call' });
    expect(lines.every((line) => line.endsWith('\n') && line.indexOf('\n') === line.length - 1)).toBe(true);
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed[0]).toMatchObject({ level: 'info', msg: 'outside' });
    expect(parsed[0]).not.toHaveProperty('requestId');
    expect(parsed[1]).toMatchObject({ level: 'warn', msg: 'inside, after an await', requestId: '0123456789abcdef' });
    expect(parsed[2]).toMatchObject({ level: 'error', msg: 'with fields', status: 503, method: 'tools/call' });
    expect(typeof parsed[2]?.['time']).toBe('string');
  });
});
