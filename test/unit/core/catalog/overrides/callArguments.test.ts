/** A call's arguments under overrides: fixed values forced, defaults filled, a hidden one set by the client refused. */
import { describe, expect, it } from 'vitest';
import { rewriteArguments } from '../../../../../electron/core/catalog/overrides/callArguments.js';

describe('rewriteArguments', () => {
  const overrides = { path: { fixed: '/notes' }, encoding: { default: 'utf8' }, mode: { description: 'how' } };

  it('injects fixed values and fills defaults the client left out, without touching its object', () => {
    const sent = { mode: 'r' };
    expect(rewriteArguments(sent, overrides)).toEqual({
      ok: true,
      arguments: { mode: 'r', path: '/notes', encoding: 'utf8' },
    });
    expect(sent).toEqual({ mode: 'r' });
    expect(rewriteArguments(undefined, overrides)).toEqual({
      ok: true,
      arguments: { path: '/notes', encoding: 'utf8' },
    });
  });

  it("keeps the client's own value over a default, and a null default fills in too", () => {
    expect(rewriteArguments({ encoding: 'latin1' }, { encoding: { default: 'utf8' } })).toEqual({
      ok: true,
      arguments: { encoding: 'latin1' },
    });
    expect(rewriteArguments({}, { limit: { default: null } })).toEqual({ ok: true, arguments: { limit: null } });
  });

  it('refuses a client that sets a fixed argument, naming it, even to the fixed value', () => {
    expect(rewriteArguments({ path: '/etc' }, overrides)).toEqual({ ok: false, hidden: 'path' });
    expect(rewriteArguments({ path: '/notes' }, overrides)).toEqual({ ok: false, hidden: 'path' });
  });

  it('passes arguments through as they are without overrides', () => {
    const sent = { a: 1 };
    expect(rewriteArguments(sent, undefined)).toEqual({ ok: true, arguments: sent });
  });
});
