/**
 * Readiness as /readyz reports it: `settled` once every enabled backend had
 * its first attempt, `listable` once each has settled or serves its cached
 * catalog (a list is complete), `ready` once settled with one serving.
 */
import { describe, expect, it } from 'vitest';
import { readinessOf, type ReadinessInput } from '../../../../../electron/core/backends/supervisor/backendPool.js';

const up: ReadinessInput = { status: 'up', enabled: true, settled: true };
const starting: ReadinessInput = { status: 'connecting', enabled: true, settled: false };
const startingCached: ReadinessInput = { ...starting, publishedFromCache: true };

describe('readinessOf', () => {
  it('is listable but not settled while a backend with a cached catalog starts', () => {
    expect(readinessOf([up, startingCached])).toMatchObject({ ready: false, settled: false, listable: true });
  });

  it('is neither while a backend without a cached catalog starts', () => {
    expect(readinessOf([up, startingCached, starting])).toMatchObject({ settled: false, listable: false });
  });

  it('ignores disabled backends and is ready once all settled with one up', () => {
    const disabled: ReadinessInput = { status: 'disabled', enabled: false, settled: false };
    expect(readinessOf([up, disabled])).toMatchObject({ ready: true, settled: true, listable: true });
    expect(readinessOf([])).toMatchObject({ ready: true, settled: true, listable: true });
  });
});
