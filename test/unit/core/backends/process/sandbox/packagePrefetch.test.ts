/** Which packages a quarantined npx line is fetched for before it runs offline (packagePrefetch.ts). */
import { describe, expect, it } from 'vitest';
import { npxPackages } from '../../../../../../electron/core/backends/process/sandbox/packagePrefetch.js';

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
