/**
 * Our sandbox policy as srt's settings on macOS and on Windows, checked
 * exactly: what each kind of grant, the defaults, the network settings and a
 * bundle's declared needs become. A change of mapping fails here first (srt
 * cannot run on this machine: docs/security.md has the manual check).
 */
import { describe, expect, it } from 'vitest';
import type { SandboxPolicy } from '../../../../../../electron/core/backends/process/sandbox/sandboxPolicy.js';
import {
  srtCommandLine,
  srtCommandSettings,
  srtSessionConfig,
  withServerEnv,
} from '../../../../../../electron/core/backends/process/sandbox/srtSettings.js';

const MAC_HOME = '/Users/ada';
const MAC_STATE = `${MAC_HOME}/Library/Application Support/mcp-switchboard`;

/** A policy as resolveSandboxPolicy computes it on a Mac (its system mounts do not matter to srt). */
function macPolicy(overrides: Partial<SandboxPolicy> = {}): SandboxPolicy {
  const base = `${MAC_STATE}/sandboxes/notes`;
  return {
    backendId: 'notes',
    mounts: [
      { source: '/usr', target: '/usr', mode: 'ro', optional: true },
      {
        source: '/opt/homebrew/Cellar/node/22.12.0',
        target: '/opt/homebrew/Cellar/node/22.12.0',
        mode: 'ro',
        optional: true,
      },
      { source: `${MAC_HOME}/.local/share/uv`, target: `${MAC_HOME}/.local/share/uv`, mode: 'ro', optional: true },
    ],
    links: [{ target: 'private/etc', path: '/etc' }],
    privateHome: `${base}/home`,
    privateTmp: `${base}/tmp`,
    home: MAC_HOME,
    cwd: MAC_HOME,
    network: 'none',
    ...overrides,
  };
}

const MAC_HIDDEN = [MAC_HOME, '/Users', '/Volumes', '/tmp', '/private/tmp', '/var/folders', '/private/var/folders'];
const MAC_PRIVATE = [`${MAC_STATE}/sandboxes/notes/home`, `${MAC_STATE}/sandboxes/notes/tmp`];

describe('srt on macOS', () => {
  it('the session: no host for anyone, no file rule of its own (each server brings its own)', () => {
    expect(srtSessionConfig('darwin', [macPolicy()])).toEqual({
      network: { allowedDomains: [], deniedDomains: [], allowLocalBinding: false },
      filesystem: { denyRead: [], allowRead: [], allowWrite: [], denyWrite: [] },
    });
  });

  it('the defaults: the home, other homes, volumes and shared temp folders hidden; writes only to its private folders; no host', () => {
    expect(srtCommandSettings('darwin', macPolicy())).toEqual({
      ok: true,
      command: {
        customConfig: {
          filesystem: {
            denyRead: MAC_HIDDEN,
            // Beneath a hidden folder: the runtime's packages and the private folders (system folders are readable anyway).
            allowRead: [`${MAC_HOME}/.local/share/uv`, ...MAC_PRIVATE],
            allowWrite: MAC_PRIVATE,
            denyWrite: [],
          },
        },
        hosts: [],
        env: { HOME: MAC_PRIVATE[0], TMPDIR: MAC_PRIVATE[1] },
        // Without a cwd of its own it starts in its private home: the real one is hidden.
        cwd: MAC_PRIVATE[0],
      },
    });
  });

  it('every kind of grant: read (a file, a folder), write (a folder, a file by its folder), a cwd, a host list', () => {
    const policy = macPolicy({
      mounts: [
        { source: '/usr', target: '/usr', mode: 'ro', optional: true },
        { source: `${MAC_HOME}/projects/site`, target: `${MAC_HOME}/projects/site`, mode: 'ro', optional: true },
        { source: `${MAC_HOME}/.config/app.json`, target: `${MAC_HOME}/.config/app.json`, mode: 'ro', optional: false },
        { source: '/Volumes/data/photos', target: '/Volumes/data/photos', mode: 'ro', optional: false },
        { source: `${MAC_HOME}/notes`, target: `${MAC_HOME}/notes`, mode: 'rw', optional: false },
        { source: `${MAC_HOME}/memory`, target: `${MAC_HOME}/memory`, mode: 'rw', optional: false },
        { source: '/srv/shared', target: '/srv/shared', mode: 'rw', optional: false },
      ],
      cwd: `${MAC_HOME}/projects/site`,
      network: ['api.github.com', '*.example.com:443', '127.0.0.1:8080', 'api.github.com'],
    });
    expect(srtCommandSettings('darwin', policy)).toEqual({
      ok: true,
      command: {
        customConfig: {
          filesystem: {
            denyRead: MAC_HIDDEN,
            allowRead: [
              `${MAC_HOME}/projects/site`,
              `${MAC_HOME}/.config/app.json`,
              '/Volumes/data/photos',
              ...MAC_PRIVATE,
              `${MAC_HOME}/notes`,
              `${MAC_HOME}/memory`,
            ],
            allowWrite: [...MAC_PRIVATE, `${MAC_HOME}/notes`, `${MAC_HOME}/memory`, '/srv/shared'],
            denyWrite: [],
          },
        },
        hosts: ['api.github.com', '*.example.com:443', '127.0.0.1:8080'],
        env: { HOME: MAC_PRIVATE[0], TMPDIR: MAC_PRIVATE[1] },
        cwd: `${MAC_HOME}/projects/site`,
      },
    });
  });

  it("a bundle's declared needs: its unpacked folder read-only, its directory setting writable, its registry reachable", () => {
    const bundle = `${MAC_STATE}/bundles/acme-files`;
    const policy = macPolicy({
      backendId: 'acme-files',
      mounts: [
        { source: bundle, target: bundle, mode: 'ro', optional: true },
        { source: `${MAC_HOME}/Documents/shared`, target: `${MAC_HOME}/Documents/shared`, mode: 'rw', optional: false },
      ],
      network: ['registry.npmjs.org'],
    });
    const mapped = srtCommandSettings('darwin', policy);
    expect(mapped.ok && mapped.command.customConfig.filesystem).toEqual({
      denyRead: MAC_HIDDEN,
      allowRead: [bundle, ...MAC_PRIVATE, `${MAC_HOME}/Documents/shared`],
      allowWrite: [...MAC_PRIVATE, `${MAC_HOME}/Documents/shared`],
      denyWrite: [],
    });
    expect(mapped.ok && mapped.command.hosts).toEqual(['registry.npmjs.org']);
  });

  it('the whole network is refused with a reason, not widened for every server', () => {
    expect(srtCommandSettings('darwin', macPolicy({ network: 'all' }))).toEqual({
      ok: false,
      reason:
        'srt (the sandbox on macOS and Windows) can reach hosts only by name for one server: list the hosts it needs in sandbox.network instead of "all"',
    });
  });

  it('a grant in a temp folder spelled through its link (/var/folders, not /private/var/folders) is re-opened as spelled', () => {
    const temp = '/var/folders/xy/T/test-1';
    const mapped = srtCommandSettings(
      'darwin',
      macPolicy({
        privateHome: `${temp}/state/sandboxes/notes/home`,
        privateTmp: `${temp}/state/sandboxes/notes/tmp`,
        home: `${temp}/home`,
        cwd: `${temp}/home`,
        mounts: [{ source: `${temp}/outside`, target: `${temp}/outside`, mode: 'rw', optional: false }],
      }),
    );
    expect(mapped.ok && mapped.command.customConfig.filesystem).toEqual({
      denyRead: [`${temp}/home`, '/Users', '/Volumes', '/tmp', '/private/tmp', '/var/folders', '/private/var/folders'],
      allowRead: [`${temp}/state/sandboxes/notes/home`, `${temp}/state/sandboxes/notes/tmp`, `${temp}/outside`],
      allowWrite: [`${temp}/state/sandboxes/notes/home`, `${temp}/state/sandboxes/notes/tmp`, `${temp}/outside`],
      denyWrite: [],
    });
  });

  it('the command line bash runs, quoted', () => {
    expect(srtCommandLine('darwin', 'npx', ['-y', '@scope/pkg@1.2.3', "it's", '$HOME', 'a b'])).toBe(
      `npx -y @scope/pkg@1.2.3 'it'\\''s' '$HOME' 'a b'`,
    );
  });
});

const WIN_HOME = 'C:\\Users\\ada';
const WIN_STATE = `${WIN_HOME}\\AppData\\Roaming\\mcp-switchboard`;

function winPolicy(id: string, overrides: Partial<SandboxPolicy> = {}): SandboxPolicy {
  const base = `${WIN_STATE}\\sandboxes\\${id}`;
  return {
    backendId: id,
    mounts: [],
    links: [],
    privateHome: `${base}\\home`,
    privateTmp: `${base}\\tmp`,
    home: WIN_HOME,
    cwd: WIN_HOME,
    network: 'none',
    ...overrides,
  };
}

const privateOf = (id: string): string[] => [
  `${WIN_STATE}\\sandboxes\\${id}\\home`,
  `${WIN_STATE}\\sandboxes\\${id}\\tmp`,
];

describe('srt on Windows', () => {
  const memory = winPolicy('memory', {
    mounts: [
      { source: 'C:\\Program Files\\nodejs', target: 'C:\\Program Files\\nodejs', mode: 'ro', optional: true },
      { source: `${WIN_HOME}\\memory`, target: `${WIN_HOME}\\memory`, mode: 'rw', optional: false },
    ],
    network: ['registry.npmjs.org'],
  });
  const files = winPolicy('files', {
    mounts: [
      { source: `${WIN_HOME}\\Documents\\site`, target: `${WIN_HOME}\\Documents\\site`, mode: 'ro', optional: false },
      { source: 'D:\\data', target: 'D:\\data', mode: 'rw', optional: false },
    ],
    cwd: `${WIN_HOME}\\Documents\\site`,
  });

  it("the session holds every sandboxed server's grants (srt grants files to its account per session)", () => {
    expect(srtSessionConfig('win32', [memory, files])).toEqual({
      network: { allowedDomains: [], deniedDomains: [], allowLocalBinding: false },
      filesystem: {
        denyRead: [],
        allowRead: ['C:\\Program Files\\nodejs', `${WIN_HOME}\\Documents\\site`],
        allowWrite: [...privateOf('memory'), `${WIN_HOME}\\memory`, ...privateOf('files'), 'D:\\data'],
        denyWrite: [],
      },
    });
  });

  it("each command: the home hidden, the other servers' grants denied, its hosts, its private home", () => {
    expect(srtCommandSettings('win32', memory, [files])).toEqual({
      ok: true,
      command: {
        customConfig: {
          filesystem: {
            denyRead: [WIN_HOME, `${WIN_HOME}\\Documents\\site`, ...privateOf('files'), 'D:\\data'],
            allowWrite: [],
            denyWrite: [...privateOf('files'), 'D:\\data'],
          },
        },
        hosts: ['registry.npmjs.org'],
        env: { HOME: privateOf('memory')[0] },
        cwd: privateOf('memory')[0],
      },
    });
    expect(srtCommandSettings('win32', files, [memory])).toEqual({
      ok: true,
      command: {
        customConfig: {
          filesystem: {
            denyRead: [WIN_HOME, 'C:\\Program Files\\nodejs', ...privateOf('memory'), `${WIN_HOME}\\memory`],
            allowWrite: [],
            denyWrite: [...privateOf('memory'), `${WIN_HOME}\\memory`],
          },
        },
        hosts: [],
        env: { HOME: privateOf('files')[0] },
        cwd: `${WIN_HOME}\\Documents\\site`,
      },
    });
  });

  it('a grant two servers share is not denied to either (paths compared without case, as Windows does)', () => {
    const a = winPolicy('a', { mounts: [{ source: 'D:\\Data', target: 'D:\\Data', mode: 'rw', optional: false }] });
    const b = winPolicy('b', {
      mounts: [{ source: 'd:\\data\\sub', target: 'd:\\data\\sub', mode: 'ro', optional: false }],
    });
    const mapped = srtCommandSettings('win32', a, [b]);
    expect(mapped.ok && mapped.command.customConfig.filesystem).toEqual({
      denyRead: [WIN_HOME, ...privateOf('b')],
      allowWrite: [],
      denyWrite: privateOf('b'),
    });
  });

  it('the whole network is refused there too', () => {
    expect(srtCommandSettings('win32', winPolicy('x', { network: 'all' })).ok).toBe(false);
  });

  it("the command line cmd runs, quoted; the server's variables ride before srt's own", () => {
    expect(srtCommandLine('win32', 'npx.cmd', ['-y', 'pkg', 'a b', '100%', 'say "hi"'])).toBe(
      'npx.cmd -y pkg "a b" "100^%" "say ""hi"""',
    );
    const argv = ['srt-win.exe', 'exec', '--user', 'x', '--env', 'HTTP_PROXY=p', '--', 'cmd.exe', '/c', 'npx'];
    expect(withServerEnv(argv, { API_KEY: 'k', HOME: 'h' })).toEqual([
      'srt-win.exe',
      'exec',
      '--user',
      'x',
      '--env',
      'API_KEY=k',
      '--env',
      'HOME=h',
      '--env',
      'HTTP_PROXY=p',
      '--',
      'cmd.exe',
      '/c',
      'npx',
    ]);
  });
});
