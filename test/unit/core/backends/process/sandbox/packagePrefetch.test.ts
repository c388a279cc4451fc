/** Which packages a quarantined npx or pnpm dlx line is fetched for before it runs offline (packagePrefetch.ts). */
import { describe, expect, it } from 'vitest';
import {
  bunxPackageAt,
  npxPackages,
  packageName,
  offlineRunner,
  pnpmDlxPackages,
} from '../../../../../../electron/core/backends/process/sandbox/packagePrefetch.js';
import { HostList } from '../../../../../../electron/core/backends/process/sandbox/hostList.js';
import { packageRegistryHosts } from '../../../../../../electron/core/backends/process/sandbox/sandboxedLaunch.js';

describe('npxPackages', () => {
  it('names the package of the lines registry adds and users write', () => {
    expect(npxPackages('npx', ['-y', '@modelcontextprotocol/server-memory@2026.8.31'])).toEqual([
      '@modelcontextprotocol/server-memory@2026.8.31',
    ]);
    expect(npxPackages('/usr/bin/npx', ['--yes', 'pkg', '--port', '3'])).toEqual(['pkg']);
    expect(npxPackages('npx.cmd', ['pkg@1'])).toEqual(['pkg@1']);
    expect(npxPackages('npx', ['--registry', 'https://r.example', '-y', 'pkg'])).toEqual(['pkg']);
  });

  it('takes every --package (-p) over the command it then runs', () => {
    expect(npxPackages('npx', ['-p', 'a@1', '--package=b', 'tool', '--flag'])).toEqual(['a@1', 'b']);
    expect(npxPackages('npx', ['--package', 'a', '-c', 'a-cli serve'])).toEqual(['a']);
  });

  it('answers nothing for other commands, and for a line with no package', () => {
    expect(npxPackages('uvx', ['pkg'])).toBeUndefined();
    expect(npxPackages('node', ['server.js'])).toBeUndefined();
    expect(npxPackages('npx', ['-y'])).toBeUndefined();
  });
});

describe('pnpmDlxPackages', () => {
  it('names the package of `pnpm dlx` and `pnpx` lines, past pnpm options before dlx', () => {
    expect(pnpmDlxPackages('pnpm', ['dlx', '@modelcontextprotocol/server-memory'])).toEqual([
      '@modelcontextprotocol/server-memory',
    ]);
    expect(pnpmDlxPackages('/opt/pnpm/pnpm.cmd', ['--silent', 'dlx', 'pkg@2', '--port', '3'])).toEqual(['pkg@2']);
    expect(pnpmDlxPackages('pnpm', ['--dir', '/srv', 'dlx', 'pkg'])).toEqual(['pkg']);
    expect(pnpmDlxPackages('pnpx', ['pkg@1', 'serve'])).toEqual(['pkg@1']);
  });

  it('takes every --package over the command it then runs, and skips --allow-build’s value', () => {
    expect(pnpmDlxPackages('pnpm', ['dlx', '--package=a@1', '--package', 'b', 'tool'])).toEqual(['a@1', 'b']);
    expect(pnpmDlxPackages('pnpm', ['dlx', '--allow-build', 'esbuild', 'pkg'])).toEqual(['pkg']);
  });

  it('answers nothing for pnpm’s other commands, other runners, and a dlx with no package', () => {
    expect(pnpmDlxPackages('pnpm', ['exec', 'pkg'])).toBeUndefined();
    expect(pnpmDlxPackages('pnpm', ['dlx'])).toBeUndefined();
    expect(pnpmDlxPackages('npx', ['pkg'])).toBeUndefined();
  });
});

describe('offlineRunner', () => {
  it('says which runner fetches first: npx, pnpm dlx, bunx; none for uvx (it keeps its index)', () => {
    expect(offlineRunner('npx', ['-y', 'a'])).toEqual({ runner: 'npx', packages: ['a'] });
    expect(offlineRunner('pnpm', ['dlx', 'a'])).toEqual({ runner: 'pnpm', packages: ['a'] });
    expect(offlineRunner('bunx', ['--bun', 'a', 'serve'])).toEqual({ runner: 'bunx', packages: ['a'], at: [1] });
    expect(offlineRunner('uvx', ['a'])).toBeUndefined();
  });
});

describe('bunxPackageAt', () => {
  it('finds where a bunx line names its packages, to name them with the versions fetched', () => {
    expect(bunxPackageAt('bunx', ['@modelcontextprotocol/server-memory'])).toEqual([0]);
    expect(bunxPackageAt('/opt/bun/bin/bun', ['x', '--bun', 'pkg@2', '--port', '3'])).toEqual([2]);
    expect(bunxPackageAt('bunx', ['-p', 'a', '--package', 'b', 'tool'])).toEqual([1, 3]);
  });

  it('answers nothing for bun’s other commands and a bunx with no package', () => {
    expect(bunxPackageAt('bun', ['run', 'server.ts'])).toBeUndefined();
    expect(bunxPackageAt('bunx', ['--bun'])).toBeUndefined();
  });

  it('reads a spec’s package name, scoped or not, with or without a version', () => {
    expect(packageName('@scope/name@^1.2')).toBe('@scope/name');
    expect(packageName('@scope/name')).toBe('@scope/name');
    expect(packageName('name@latest')).toBe('name');
    expect(packageName('name')).toBe('name');
  });
});

describe('uvx, the runner that keeps its index while quarantined', () => {
  it('reaches only the index’s read hosts: PyPI takes uploads on another host, which stays refused', () => {
    const hosts = packageRegistryHosts('uvx', {});
    expect(hosts).toEqual(['pypi.org', 'files.pythonhosted.org']);
    const list = new HostList(hosts);
    expect(list.allows('files.pythonhosted.org', 443)).toBe(true);
    expect(list.allows('upload.pypi.org', 443)).toBe(false);
    expect(list.allows('test.pypi.org', 443)).toBe(false);
  });
});
