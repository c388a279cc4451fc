import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findCommand, missingRuntimeMessage } from '../../../electron/core/platform/env/findCommand.js';
import { resolveLoginEnvironment } from '../../../electron/core/platform/env/loginShell.js';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sb-login-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe.skipIf(process.platform === 'win32')('the login-shell environment', () => {
  it('a dock-like start (PATH=/usr/bin:/bin) finds a node that only the login profile puts on PATH', async () => {
    const bin = join(home, '.nvm-like', 'bin');
    await mkdir(bin, { recursive: true });
    await symlink(process.execPath, join(bin, 'sb-node'));
    await writeFile(join(home, '.profile'), `export PATH="$HOME/.nvm-like/bin:$PATH"\nexport SB_FROM_PROFILE=yes\n`);
    const dock = { HOME: home, PATH: '/usr/bin:/bin', SHELL: '/bin/sh', LANG: 'C' };
    expect(await findCommand('sb-node', dock)).toBeUndefined();
    const resolved = await resolveLoginEnvironment({ base: dock, home });
    expect(resolved.source).toBe('login-shell');
    // Our own entries keep their order in front; the profile's entry is added after them.
    expect(resolved.path.slice(0, 2)).toEqual(['/usr/bin', '/bin']);
    expect(resolved.path).toContain(bin);
    expect(resolved.environment['SB_FROM_PROFILE']).toBe('yes');
    expect(await findCommand('sb-node', resolved.environment)).toBe(join(bin, 'sb-node'));
    expect(await findCommand('npx', resolved.environment)).toMatch(/\/npx$/);
  });

  it('a PATH set for this launch keeps its order in front of the profile (a command there wins)', async () => {
    const mine = join(home, 'mine');
    const profileBin = join(home, 'profile-bin');
    await mkdir(mine, { recursive: true });
    await mkdir(profileBin, { recursive: true });
    await symlink(process.execPath, join(mine, 'sb-tool'));
    await symlink(process.execPath, join(profileBin, 'sb-tool'));
    await writeFile(join(home, '.profile'), `export PATH="$HOME/profile-bin:$PATH"\n`);
    const launch = { HOME: home, PATH: `${mine}:/usr/bin:/bin`, SHELL: '/bin/sh', LANG: 'C' };
    const resolved = await resolveLoginEnvironment({ base: launch, home });
    expect(resolved.source).toBe('login-shell');
    expect(await findCommand('sb-tool', resolved.environment)).toBe(join(mine, 'sb-tool'));
    expect(resolved.path).toContain(profileBin);
  });

  it('a shell that hangs is killed at the timeout and common locations are added instead', async () => {
    const shell = join(home, 'slow-shell');
    const pidFile = join(home, 'pid');
    await writeFile(shell, `#!/bin/sh\necho $$ > "${pidFile}"\nexec sleep 30\n`);
    await chmod(shell, 0o755);
    await mkdir(join(home, '.local', 'bin'), { recursive: true });
    const started = Date.now();
    const resolved = await resolveLoginEnvironment({
      base: { HOME: home, PATH: '/usr/bin:/bin' },
      shell,
      timeoutMs: 300,
      home,
      extraPath: ['/opt/added-in-settings'],
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(resolved.source).toBe('fallback');
    expect(resolved.reason).toContain(shell);
    expect(resolved.path.slice(0, 3)).toEqual(['/opt/added-in-settings', '/usr/bin', '/bin']);
    expect(resolved.path).toContain(join(home, '.local', 'bin'));
    expect(resolved.path).not.toContain(join(home, '.volta', 'bin')); // only locations that exist
    const pid = Number(await readFile(pidFile, 'utf8'));
    expect(() => process.kill(pid, 0)).toThrow(); // the shell is gone
  });

  it('says where to get a missing runtime', () => {
    expect(missingRuntimeMessage('docker', { PATH: '/usr/bin' })).toBe(
      'docker is not found on PATH (/usr/bin): install Docker from https://docs.docker.com/get-started/get-docker/, then retry',
    );
  });
});
