import { describe, expect, it } from 'vitest';
import {
  isPrincipalKey,
  principalIdOf,
  principalReferenceProblems,
  withPrincipalId,
} from '../../../../../electron/core/platform/config/principalId.js';

describe('${principal.id}', () => {
  it('is a stable filesystem-safe hash per person, never their subject; local for anyone else', () => {
    const alice = principalIdOf('principal:https://login.example.com#alice');
    expect(alice).toMatch(/^[0-9a-f]{32}$/);
    expect(principalIdOf('principal:https://login.example.com#alice')).toBe(alice);
    expect(principalIdOf('principal:https://login.example.com#bob')).not.toBe(alice);
    // The same subject at another issuer is another person.
    expect(principalIdOf('principal:https://other.example.com#alice')).not.toBe(alice);
    expect(principalIdOf('client:local')).toBe('local');
    expect(principalIdOf('client:ci-bot')).toBe('local');
    expect(isPrincipalKey('principal:x#y')).toBe(true);
    expect(isPrincipalKey('client:principal')).toBe(false);
  });

  it('is put into args, string env values and cwd, leaving secret references and the rest alone', () => {
    const entry = {
      command: 'memory-server',
      args: ['--file', '/srv/${principal.id}/${principal.id}.json', '${HOME}'],
      env: { MEMORY_FILE_PATH: 'm-${principal.id}', TOKEN: { secret: 'token' }, PLAIN: '${USER}' },
      cwd: '/srv/${principal.id}',
    };
    expect(withPrincipalId(entry, 'abc')).toEqual({
      command: 'memory-server',
      args: ['--file', '/srv/abc/abc.json', '${HOME}'],
      env: { MEMORY_FILE_PATH: 'm-abc', TOKEN: { secret: 'token' }, PLAIN: '${USER}' },
      cwd: '/srv/abc',
    });
    expect(entry.args[1]).toBe('/srv/${principal.id}/${principal.id}.json');
  });
});

describe('principalReferenceProblems', () => {
  it('knows only ${principal.id}, and only for a per-principal server', () => {
    const entry = { args: ['${principal.id}', '${principal.email}'], env: { A: 'x' }, cwd: '/srv/${principal.id}' };
    expect(principalReferenceProblems(entry, true)).toEqual([
      { field: 'args.1', message: 'unknown reference ${principal.email}: only ${principal.id} is expanded' },
    ]);
    expect(principalReferenceProblems(entry, false).map((problem) => problem.field)).toEqual([
      'args.0',
      'args.1',
      'cwd',
    ]);
    expect(principalReferenceProblems({ args: ['${HOME}'], env: {} }, false)).toEqual([]);
  });
});
