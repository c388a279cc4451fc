/**
 * The one redaction both pipes meet: `dispatch` redacts results and errors
 * (message and data) except the client token a user asked for, and the event
 * hub redacts payloads; the secret forms are computed once per value list.
 */
import { describe, expect, it, vi } from 'vitest';
import type { CoreHandlers } from '../../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import { cachedSecretForms, secretRedactor } from '../../../electron/core/platform/index.js';
import { dispatch } from '../../../electron/host/dispatch.js';
import { createEventHub } from '../../../electron/host/contractEvents.js';
import type { SwitchboardCore } from '../../../electron/core/switchboard/index.js';

const SECRET = 'stderr-secret-9f8e7d6c';
const redact = secretRedactor(() => [SECRET]);

function handlers(overrides: Partial<Record<string, (params: unknown) => Promise<unknown>>>): CoreHandlers {
  return overrides as unknown as CoreHandlers;
}

describe('dispatch redaction', () => {
  it('redacts a result, deeply (strings and keys)', async () => {
    const outcome = await dispatch(
      handlers({ 'app.info': async () => ({ text: `a ${SECRET} b`, [SECRET]: [SECRET] }) }),
      'app.info',
      undefined,
      redact,
    );
    expect(JSON.stringify(outcome)).not.toContain(SECRET);
    expect(outcome).toEqual({ ok: true, result: { text: 'a [redacted] b', '[redacted]': ['[redacted]'] } });
  });

  it("redacts a thrown error's message and data (e.g. a failed check quoting the server's stderr)", async () => {
    const outcome = await dispatch(
      handlers({
        'backends.add': async () => {
          throw new SwitchboardError(ErrorCode.ConnectFailed, `exited: Error: bad key ${SECRET}`, {
            check: { ok: false, error: { message: `stderr: ${SECRET}` } },
            stderr: [`line ${SECRET}`],
          });
        },
      }),
      'backends.add',
      { id: 'x', entry: {} },
      redact,
    );
    expect(outcome.ok).toBe(false);
    expect(JSON.stringify(outcome)).not.toContain(SECRET);
    expect(outcome).toMatchObject({
      ok: false,
      error: {
        code: ErrorCode.ConnectFailed,
        message: 'exited: Error: bad key [redacted]',
        data: { check: { error: { message: 'stderr: [redacted]' } }, stderr: ['line [redacted]'] },
      },
    });
  });

  it('redacts plain Errors and JSON-RPC errors too', async () => {
    const rpc = Object.assign(new Error(`unknown tool ${SECRET}`), { code: -32602 });
    const outcome = await dispatch(
      handlers({
        'catalog.callTool': async () => {
          throw rpc;
        },
      }),
      'catalog.callTool',
      { name: 'x' },
      redact,
    );
    expect(outcome).toEqual({
      ok: false,
      error: { code: ErrorCode.InvalidParams, message: 'unknown tool [redacted]', data: { rpcCode: -32602 } },
    });
  });

  it('leaves the token profiles.createToken and rotateToken return as it is', async () => {
    for (const method of ['profiles.createToken', 'profiles.rotateToken'] as const) {
      const outcome = await dispatch(
        handlers({ [method]: async () => ({ token: SECRET }) }),
        method,
        { id: 'p' },
        redact,
      );
      expect(outcome).toEqual({ ok: true, result: { token: SECRET } });
    }
    // Their errors are still redacted.
    const failed = await dispatch(
      handlers({
        'profiles.createToken': async () => {
          throw new Error(SECRET);
        },
      }),
      'profiles.createToken',
      { id: 'p' },
      redact,
    );
    expect(JSON.stringify(failed)).not.toContain(SECRET);
  });

  it('answers unchanged without a redactor', async () => {
    const outcome = await dispatch(handlers({ 'app.info': async () => SECRET }), 'app.info', undefined);
    expect(outcome).toEqual({ ok: true, result: SECRET });
  });
});

describe('secret forms', () => {
  it('are computed once per value list, again when the list changes', () => {
    let values = ['first-secret-value'];
    const calls = vi.fn(() => values);
    const forms = cachedSecretForms(calls);
    const a = forms();
    expect(forms()).toBe(a);
    expect(forms()).toBe(a);
    values = ['second-secret-value'];
    const b = forms();
    expect(b).not.toBe(a);
    expect(b).toContain('second-secret-value');
    expect(calls).toHaveBeenCalledTimes(4);
  });
});

/** A core with just the event sources the hub listens to. */
function fakeCore() {
  const handlers = new Map<string, (payload: unknown) => void>();
  const core = {
    events: {
      on: (event: string, listener: (payload: unknown) => void) => {
        handlers.set(event, listener);
        return () => handlers.delete(event);
      },
    },
    sessions: { onChange: () => () => undefined },
  } as unknown as SwitchboardCore;
  return { core, fire: (event: string, payload: unknown) => handlers.get(event)?.(payload) };
}

function fakeAudit() {
  const listeners = new Set<() => void>();
  return {
    audit: { onRecord: (listener: () => void) => (listeners.add(listener), () => listeners.delete(listener)) },
    record: () => listeners.forEach((listener) => listener()),
  };
}

describe('event hub', () => {
  it('redacts payloads (a config error can quote a secret value)', () => {
    vi.useFakeTimers();
    try {
      const { core, fire } = fakeCore();
      const hub = createEventHub(core, { redact });
      const seen: unknown[] = [];
      hub.on((event, payload) => seen.push([event, payload]));
      fire('configError', { message: `headers.X-Key: "${SECRET}" is not valid` });
      vi.advanceTimersByTime(60);
      expect(seen).toEqual([['configChanged', { error: 'headers.X-Key: "[redacted]" is not valid' }]]);
      hub.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('coalesces logAppended over a second, other events over 50 ms', () => {
    vi.useFakeTimers();
    try {
      const { core, fire } = fakeCore();
      const { audit, record } = fakeAudit();
      const hub = createEventHub(core, { audit: audit as never });
      const seen: string[] = [];
      hub.on((event) => seen.push(event));
      for (let i = 0; i < 100; i++) {
        record();
        fire('approvalsChanged', {});
        vi.advanceTimersByTime(10);
      }
      // 1 s of a call every 10 ms: one log event; the others every 50 ms.
      expect(seen.filter((event) => event === 'logAppended')).toHaveLength(1);
      expect(seen.filter((event) => event === 'approvalsChanged').length).toBeGreaterThanOrEqual(19);
      hub.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
