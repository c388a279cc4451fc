/**
 * The stdio backends' environment before and after the login shell answers
 * (the shell answers after the endpoint listens: only children wait for it).
 */
import { describe, expect, it } from 'vitest';
import type { ResolvedEnvironment } from '../../../../../electron/core/platform/env/loginShell.js';
import { StdioPath } from '../../../../../electron/core/platform/env/stdioPath.js';

/** A login answer the test settles when it chooses. */
function pendingLogin(): {
  login: Promise<ResolvedEnvironment>;
  answer: (r: ResolvedEnvironment) => void;
  fail: () => void;
} {
  let answer!: (r: ResolvedEnvironment) => void;
  let fail!: () => void;
  const login = new Promise<ResolvedEnvironment>((resolve, reject) => {
    answer = resolve;
    fail = () => reject(new Error('shell crashed'));
  });
  return { login, answer, fail };
}

describe('StdioPath', () => {
  it('serves its own environment while the shell is asked, then the shell’s variables and PATH behind the user’s entries', async () => {
    const { login, answer } = pendingLogin();
    const environment = { PATH: '/usr/bin:/bin', LANG: 'C' };
    const stdioPath = new StdioPath(environment, ['/opt/mine'], login);
    expect(stdioPath.state()).toEqual({
      source: 'resolving',
      path: ['/opt/mine', '/usr/bin', '/bin'],
      extra: ['/opt/mine'],
    });
    const before = stdioPath.revision;
    let ready = false;
    void stdioPath.ready.then(() => (ready = true));
    await Promise.resolve();
    expect(ready).toBe(false);
    answer({
      environment: { PATH: '/usr/bin:/bin:/home/me/.nvm/bin', LANG: 'C', NVM_DIR: '/home/me/.nvm' },
      source: 'login-shell',
      path: ['/usr/bin', '/bin', '/home/me/.nvm/bin'],
    });
    await stdioPath.ready;
    // The same object, changed in place: the core spawns children with it.
    expect(environment).toEqual({
      PATH: '/opt/mine:/usr/bin:/bin:/home/me/.nvm/bin',
      LANG: 'C',
      NVM_DIR: '/home/me/.nvm',
    });
    expect(stdioPath.state().source).toBe('login-shell');
    expect(stdioPath.revision).toBeGreaterThan(before);
    // A Settings change afterwards keeps the shell's entries.
    stdioPath.setExtra([]);
    expect(environment.PATH).toBe('/usr/bin:/bin:/home/me/.nvm/bin');
  });

  it('keeps the fallback’s reason for Settings', async () => {
    const stdioPath = new StdioPath(
      { PATH: '/usr/bin' },
      [],
      Promise.resolve({
        environment: { PATH: '/usr/bin' },
        source: 'fallback',
        path: ['/usr/bin', '/usr/local/bin'],
        reason: '/bin/zsh: timed out',
      }),
    );
    await stdioPath.ready;
    expect(stdioPath.state()).toEqual({
      source: 'fallback',
      path: ['/usr/bin', '/usr/local/bin'],
      extra: [],
      reason: '/bin/zsh: timed out',
    });
  });

  it('is ready at once without a shell to ask, and a failed answer never fails a waiting start', async () => {
    const given = new StdioPath({ PATH: '/bin' }, []);
    await given.ready;
    expect(given.state().source).toBe('given');
    const { login, fail } = pendingLogin();
    const failed = new StdioPath({ PATH: '/bin' }, [], login);
    fail();
    await expect(failed.ready).resolves.toBeUndefined();
    expect(failed.state()).toEqual({ source: 'given', path: ['/bin'], extra: [] });
  });
});
