/**
 * The contract's params schemas as dispatch applies them: a good call reaches
 * its handler parsed (defaults filled in, unknown keys dropped); a bad one is
 * answered as data naming the method and the field, never quoting the value.
 */
import { describe, expect, it } from 'vitest';
import { METHOD_NAMES, type CoreHandlers } from '../../../shared/contract.js';
import { METHODS } from '../../../shared/contractMethods.js';
import { dispatch } from '../../../electron/host/dispatch.js';
import { parseParams } from '../../../electron/host/parseParams.js';

const SECRET = 'secret-value-4f3e2d1c';

describe('the contract schemas', () => {
  it('give every method of the contract a schema, and no other', () => {
    expect(Object.keys(METHODS).sort()).toEqual([...METHOD_NAMES].sort());
  });

  it('name the method and the field of a bad call, with every issue in data', () => {
    expect(parseParams('policy.setBackend', { backendId: 'mem', profile: 7, visible: 'yes' })).toEqual({
      ok: false,
      error: {
        code: 'invalid_params',
        message: 'policy.setBackend: profile: expected string, received number',
        data: {
          path: 'profile',
          issues: [
            { path: 'profile', message: 'expected string, received number' },
            { path: 'visible', message: 'expected boolean, received string' },
          ],
        },
      },
    });
    expect(parseParams('clients.import', { client: 'cursor', names: ['a', 3] })).toMatchObject({
      ok: false,
      error: { message: 'clients.import: names.1: expected string, received number', data: { path: 'names.1' } },
    });
    expect(parseParams('backends.remove', { id: '' })).toMatchObject({
      ok: false,
      error: { message: 'backends.remove: id: must not be empty' },
    });
    expect(parseParams('log.query', { kind: 'tools/cal' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', data: { path: 'kind' } },
    });
  });

  it('refuse params that are not an object, and missing required params', () => {
    expect(parseParams('backends.remove', 'x')).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', message: 'backends.remove: params must be an object' },
    });
    expect(parseParams('backends.check', undefined)).toMatchObject({
      ok: false,
      error: { message: 'backends.check: params: expected object, received undefined', data: { path: '' } },
    });
  });

  it('never quote the value they refuse (it may be a secret)', () => {
    for (const outcome of [
      parseParams('secrets.set', { name: `bad name ${SECRET}`, value: SECRET }),
      parseParams('secrets.set', { name: 'ok', value: { SECRET } }),
      parseParams('profiles.setExposure', { id: 'p', exposure: SECRET }),
      parseParams('policy.setRule', { backendId: 'b', kind: SECRET, original: 'x', rule: SECRET }),
    ]) {
      expect(outcome.ok).toBe(false);
      expect(JSON.stringify(outcome)).not.toContain(SECRET);
    }
  });

  it('fill in defaults, accept absent optional params, and drop unknown keys', () => {
    expect(parseParams('catalog.callTool', { name: 'a__b', extra: 1 })).toEqual({
      ok: true,
      result: { name: 'a__b', arguments: {} },
    });
    expect(parseParams('policy.get', undefined)).toEqual({ ok: true, result: {} });
    expect(parseParams('log.query', undefined)).toEqual({ ok: true, result: {} });
    expect(parseParams('registry.search', {})).toEqual({ ok: true, result: { text: '' } });
    expect(parseParams('profiles.createToken', { id: 'cursor' })).toEqual({
      ok: true,
      result: { id: 'cursor', name: 'cursor' },
    });
    expect(parseParams('backends.list', { anything: true })).toEqual({ ok: true, result: undefined });
  });
});

describe('dispatch', () => {
  it('parses once, before the handler: a bad call never reaches it', async () => {
    const seen: unknown[] = [];
    const handlers = {
      'backends.setEnabled': async (params: unknown) => void seen.push(params),
    } as unknown as CoreHandlers;
    expect(await dispatch(handlers, 'backends.setEnabled', { id: 'mem', enabled: 'no' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', data: { path: 'enabled' } },
    });
    expect(seen).toEqual([]);
    expect(await dispatch(handlers, 'backends.setEnabled', { id: 'mem', enabled: false, x: 1 })).toEqual({
      ok: true,
      result: undefined,
    });
    expect(seen).toEqual([{ id: 'mem', enabled: false }]);
  });

  it("hands the handler the call's signal", async () => {
    const controller = new AbortController();
    let signal: AbortSignal | undefined;
    const handlers = {
      'catalog.callTool': (_params: unknown, call: { signal: AbortSignal }) =>
        new Promise((_resolve, reject) => {
          signal = call.signal;
          call.signal.addEventListener('abort', () => reject(call.signal.reason));
        }),
    } as unknown as CoreHandlers;
    const outcome = dispatch(handlers, 'catalog.callTool', { name: 'x' }, undefined, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(signal?.aborted).toBe(false);
    controller.abort();
    expect(await outcome).toMatchObject({ ok: false, error: { code: 'cancelled' } });
  });
});
