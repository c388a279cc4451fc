/**
 * Handlers that read the environment wait for the login shell's answer (it
 * arrives after the endpoint listens); without a pending answer they run at once.
 */
import { describe, expect, it } from 'vitest';
import type { CoreHandlers } from '../../../shared/contract.js';
import { afterEnvironment } from '../../../electron/host/afterEnvironment.js';

describe('afterEnvironment', () => {
  it('holds each handler until the environment is final, then answers with its arguments', async () => {
    let settle!: () => void;
    const ready = new Promise<void>((resolve) => (settle = resolve));
    const seen: unknown[] = [];
    const handlers = afterEnvironment(ready, {
      'env.path': async (params: unknown) => {
        seen.push(params);
        return { source: 'login-shell', path: ['/bin'], extra: [] };
      },
    } as Partial<CoreHandlers>);
    const answer = (handlers['env.path'] as (params: unknown) => Promise<unknown>)({ probe: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([]);
    settle();
    await expect(answer).resolves.toEqual({ source: 'login-shell', path: ['/bin'], extra: [] });
    expect(seen).toEqual([{ probe: 1 }]);
  });

  it('returns the handlers themselves when there is nothing to wait for', () => {
    const handlers = { 'env.path': async () => ({ source: 'given' as const, path: [], extra: [] }) };
    expect(afterEnvironment(undefined, handlers)).toBe(handlers);
  });
});
