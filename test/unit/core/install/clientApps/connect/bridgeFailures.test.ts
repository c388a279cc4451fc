/**
 * Which failed sends the connect bridge may send again after recovering: only
 * those that cannot have reached the old instance (so no tool runs twice).
 */
import { describe, expect, it } from 'vitest';
import { classifySendFailure } from '../../../../../../electron/core/install/clientApps/connect/stdioBridge.js';

const networkError = (code: string) =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });

describe('classifySendFailure', () => {
  it('treats a refused connection and an unknown session as not reached', () => {
    expect(classifySendFailure(networkError('ECONNREFUSED'))).toBe('not-reached');
    const sessionGone = Object.assign(new Error('Error POSTing to endpoint: Session not found'), {
      data: { status: 404 },
    });
    expect(classifySendFailure(sessionGone)).toBe('not-reached');
  });

  it('treats a connection cut mid-request as possibly run', () => {
    expect(classifySendFailure(networkError('ECONNRESET'))).toBe('cut-off');
    expect(classifySendFailure(networkError('UND_ERR_SOCKET'))).toBe('cut-off');
  });

  it('leaves every other failure alone', () => {
    expect(classifySendFailure(new Error('Error POSTing to endpoint: bad request'))).toBe('other');
    expect(classifySendFailure(Object.assign(new Error('forbidden'), { data: { status: 403 } }))).toBe('other');
    expect(classifySendFailure(undefined)).toBe('other');
  });
});
