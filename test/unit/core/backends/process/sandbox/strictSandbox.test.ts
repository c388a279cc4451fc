/**
 * The strict sandbox a quarantined server runs under (STRICT_SANDBOX), as
 * srt's settings on macOS and Windows, checked exactly: the user's home and
 * shared folders hidden, writes only to the server's private folders, no
 * host, and none of the grants the server's own setting has. Beside it, which
 * commands are container runtimes (contained by themselves, never wrapped).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  isContainerRuntime,
  resolveSandboxPolicy,
  STRICT_SANDBOX,
  type SandboxPolicy,
} from '../../../../../../electron/core/backends/process/sandbox/sandboxPolicy.js';
import { srtCommandSettings } from '../../../../../../electron/core/backends/process/sandbox/srtSettings.js';

const root = mkdtempSync(join(tmpdir(), 'strict-sandbox-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The strict policy of a server whose own setting grants a read, a write and a host, as a platform would give it. */
function strictPolicy(home: string): SandboxPolicy {
  const policy = resolveSandboxPolicy({
    backendId: 'newcomer',
    resolvedCommand: undefined,
    args: [],
    cwd: undefined,
    setting: STRICT_SANDBOX,
    home,
    stateDir: root,
    extraPath: [],
  });
  // srt needs no system mount (system folders are readable there): as on a Mac or a Windows machine.
  return { ...policy, mounts: policy.mounts.filter((mount) => mount.mode === 'rw') };
}

describe('STRICT_SANDBOX', () => {
  it('grants nothing: no read, no write, no network', () => {
    expect(STRICT_SANDBOX).toEqual({ enabled: true, read: [], write: [], network: 'none' });
    expect(Object.isFrozen(STRICT_SANDBOX)).toBe(true);
  });

  it('on macOS: the home and shared folders hidden, writes only to its private folders, no host', () => {
    const policy = strictPolicy('/Users/ada');
    const own = [policy.privateHome, policy.privateTmp];
    expect(srtCommandSettings('darwin', policy)).toEqual({
      ok: true,
      command: {
        customConfig: {
          filesystem: {
            denyRead: [
              '/Users/ada',
              '/Users',
              '/Volumes',
              '/tmp',
              '/private/tmp',
              '/var/folders',
              '/private/var/folders',
            ],
            // The private folders live under the state folder here (a temp folder): re-opened only beneath a hidden one.
            allowRead: own.filter((path) => path.startsWith('/tmp/')),
            allowWrite: own,
            denyWrite: [],
          },
        },
        hosts: [],
        env: { HOME: policy.privateHome, TMPDIR: policy.privateTmp },
        cwd: policy.privateHome,
      },
    });
  });

  it('on Windows: the profile hidden, and the other servers’ grants denied to it; no host', () => {
    const policy = strictPolicy('C:\\Users\\ada');
    const other: SandboxPolicy = {
      ...policy,
      backendId: 'notes',
      privateHome: 'C:\\state\\notes\\home',
      privateTmp: 'C:\\state\\notes\\tmp',
      mounts: [{ source: 'C:\\Users\\ada\\notes', target: 'C:\\Users\\ada\\notes', mode: 'rw', optional: false }],
    };
    expect(srtCommandSettings('win32', policy, [other])).toEqual({
      ok: true,
      command: {
        customConfig: {
          filesystem: {
            denyRead: ['C:\\Users\\ada', 'C:\\state\\notes\\home', 'C:\\state\\notes\\tmp', 'C:\\Users\\ada\\notes'],
            allowWrite: [],
            denyWrite: ['C:\\state\\notes\\home', 'C:\\state\\notes\\tmp', 'C:\\Users\\ada\\notes'],
          },
        },
        hosts: [],
        env: { HOME: policy.privateHome },
        cwd: policy.privateHome,
      },
    });
  });
});

describe('isContainerRuntime', () => {
  it('knows docker, podman and nerdctl by name or path, on every platform', () => {
    for (const command of [
      'docker',
      '/usr/bin/podman',
      'nerdctl',
      'C:\\Program Files\\Docker\\docker.exe',
      'Docker.EXE',
    ])
      expect(isContainerRuntime(command), command).toBe(true);
    for (const command of ['node', 'npx', '/usr/bin/dockerd-helper', 'my-docker', 'uvx'])
      expect(isContainerRuntime(command), command).toBe(false);
  });
});
