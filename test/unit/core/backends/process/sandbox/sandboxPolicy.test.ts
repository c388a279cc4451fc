/**
 * What a sandboxed server may see: the defaults an ordinary server needs, the
 * user's grants on top, the real home absent, and the same policy as a
 * bubblewrap command line.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bubblewrapArgs } from '../../../../../../electron/core/backends/process/sandbox/bubblewrapArgs.js';
import {
  accessOf,
  resolveSandboxPolicy,
  type SandboxPolicyInput,
} from '../../../../../../electron/core/backends/process/sandbox/sandboxPolicy.js';

const root = mkdtempSync(join(tmpdir(), 'sandbox-policy-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
const project = join(root, 'project');
mkdirSync(join(project, 'dist'), { recursive: true });
writeFileSync(join(project, 'package.json'), '{}');
writeFileSync(join(project, 'dist', 'server.js'), '');

const byDepth = (a: string, b: string): number => a.split('/').length - b.split('/').length;

function input(overrides: Partial<SandboxPolicyInput> = {}): SandboxPolicyInput {
  return {
    backendId: 'fs',
    resolvedCommand: '/usr/bin/node',
    args: [join(project, 'dist', 'server.js')],
    cwd: undefined,
    setting: { enabled: true, read: [], write: [], network: 'none' },
    home,
    stateDir: join(root, 'state'),
    extraPath: [],
    ...overrides,
  };
}

describe('a sandbox policy', () => {
  it('shows the system read-only, the script’s project read-only, and nothing of the home', () => {
    const policy = resolveSandboxPolicy(input());
    expect(accessOf(policy, '/usr/lib')).toBe('ro');
    expect(accessOf(policy, '/etc/ssl')).toBe('ro');
    expect(accessOf(policy, join(project, 'node_modules', 'x'))).toBe('ro');
    expect(accessOf(policy, join(home, '.ssh', 'id_rsa'))).toBe('none');
    // npx's cache is the server's own, in its private home: nothing it downloads is shared.
    expect(accessOf(policy, join(home, '.npm', '_npx'))).toBe('none');
    expect(accessOf(policy, join(home, '.local', 'share', 'uv', 'python'))).toBe('ro');
    expect(policy.network).toBe('none');
  });

  it('shows a package’s script with the project its dependencies are hoisted to', () => {
    const script = join(project, 'node_modules', '@scope', 'server', 'dist', 'index.js');
    mkdirSync(join(script, '..'), { recursive: true });
    writeFileSync(script, '');
    const policy = resolveSandboxPolicy(input({ args: [script] }));
    expect(accessOf(policy, join(project, 'node_modules', '@modelcontextprotocol', 'sdk'))).toBe('ro');
  });

  it('gives the server a private home and /tmp under the state directory, created', () => {
    const policy = resolveSandboxPolicy(input());
    expect(policy.privateHome).toBe(join(root, 'state', 'sandboxes', 'fs', 'home'));
    expect(policy.privateTmp).toBe(join(root, 'state', 'sandboxes', 'fs', 'tmp'));
    expect(policy.home).toBe(home);
  });

  it('adds the grants, ~ meaning the home, and a write wins over a read of the same path', () => {
    const policy = resolveSandboxPolicy(
      input({ setting: { enabled: true, read: ['~/.ssh', '/srv/data'], write: ['/srv/data'], network: 'all' } }),
    );
    expect(accessOf(policy, join(home, '.ssh', 'id_rsa'))).toBe('ro');
    expect(accessOf(policy, '/srv/data/x')).toBe('rw');
    expect(accessOf(policy, join(home, '.aws'))).toBe('none');
  });

  it('grants a file, there or not yet, by its folder (saved by renaming a sibling over it), but not the home or /tmp', () => {
    const data = join(root, 'data');
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'there.json'), '');
    const policy = resolveSandboxPolicy(
      input({
        setting: {
          enabled: true,
          read: [],
          write: [join(data, 'there.json'), join(data, 'not-yet.jsonl'), '~/memory.json', '/tmp/memory.json'],
          network: 'none',
        },
      }),
    );
    const writable = policy.mounts.filter((mount) => mount.mode === 'rw').map((mount) => mount.source);
    expect(writable).toEqual([join(home, 'memory.json'), '/tmp/memory.json', data].sort(byDepth));
    expect(accessOf(policy, join(data, 'not-yet.jsonl.123.tmp'))).toBe('rw');
    expect(accessOf(policy, join(home, '.ssh', 'id_rsa'))).toBe('none');
    expect(accessOf(policy, '/tmp/other')).toBe('none');
  });

  it('mounts a runtime installed under the home (a version manager) read-only', () => {
    const policy = resolveSandboxPolicy(input({ resolvedCommand: join(home, '.nvm/versions/node/v22/bin/node') }));
    expect(accessOf(policy, join(home, '.nvm/versions/node/v22/lib/node_modules'))).toBe('ro');
    expect(accessOf(policy, join(home, '.nvm/alias'))).toBe('none');
  });
});

describe('as bubblewrap arguments', () => {
  it('unshares everything, shares the network only when allowed, and mounts parents before children', () => {
    const none = bubblewrapArgs(resolveSandboxPolicy(input()), 'node', ['server.js']);
    expect(none.slice(0, 3)).toEqual(['--unshare-all', '--die-with-parent', '--new-session']);
    expect(none).not.toContain('--share-net');
    expect(none.slice(-3)).toEqual(['--', 'node', 'server.js']);
    const all = bubblewrapArgs(
      resolveSandboxPolicy(input({ setting: { enabled: true, read: [], write: [join(home, 'out')], network: 'all' } })),
      'node',
      [],
    );
    expect(all).toContain('--share-net');
    const homeAt = all.findIndex((arg, at) => arg === '--bind' && all[at + 2] === home);
    const grantAt = all.findIndex((arg, at) => arg === '--bind' && all[at + 2] === join(home, 'out'));
    expect(homeAt).toBeGreaterThan(-1);
    expect(grantAt).toBeGreaterThan(homeAt);
  });

  it("gives npx its private home's cache rather than npm's own folder (npm run serve sets npm_config_cache)", () => {
    const argv = bubblewrapArgs(resolveSandboxPolicy(input()), 'npx', ['-y', 'some-server']);
    expect(argv.filter((arg, at) => argv[at - 1] === '--unsetenv')).toEqual(['npm_config_cache', 'NPM_CONFIG_CACHE']);
  });
});
