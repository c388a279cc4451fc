import { describe, expect, it } from 'vitest';
import { SubjectTokens } from '../../../../../electron/core/platform/auth/subjectTokens.js';

const inSeconds = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;

describe('SubjectTokens', () => {
  it('keeps each caller’s latest token until it expires, and names the caller seen last', () => {
    const tokens = new SubjectTokens(() => true);
    const fresh: string[] = [];
    tokens.onNewCaller((caller) => fresh.push(caller));
    tokens.remember('principal:a', 'token-a1', inSeconds(300));
    tokens.remember('principal:b', 'token-b', inSeconds(300));
    tokens.remember('principal:a', 'token-a2', inSeconds(300));
    expect(tokens.current('principal:a')).toBe('token-a2');
    expect(tokens.latestCaller()).toBe('principal:a');
    // Only a caller new here (or whose token lapsed) is announced.
    expect(fresh).toEqual(['principal:a', 'principal:b']);
    tokens.remember('principal:c', 'expired', inSeconds(-5));
    expect(tokens.current('principal:c')).toBeUndefined();
  });

  it('keeps nothing while no server exchanges tokens', () => {
    const tokens = new SubjectTokens(() => false);
    tokens.remember('principal:a', 'token-a', inSeconds(300));
    expect(tokens.current('principal:a')).toBeUndefined();
    expect(tokens.latestCaller()).toBeUndefined();
  });
});
