/**
 * Whether a sandbox can run, per platform, with the platform, the Node.js
 * version and srt's own check given: macOS and Windows through srt, a clear
 * answer (what to upgrade, install or run) where it cannot, never a stack trace.
 */
import { describe, expect, it } from 'vitest';
import {
  nodeAtLeast,
  platformAnswer,
  WINDOWS_SETUP_COMMAND,
  type SrtReadiness,
  type SupportHost,
} from '../../../../../../electron/core/backends/process/sandbox/sandboxSupport.js';

function host(overrides: Partial<SupportHost> & { readiness?: SrtReadiness } = {}): SupportHost & { asked: string[] } {
  const asked: string[] = [];
  return {
    platform: 'darwin',
    nodeVersion: '22.12.0',
    exists: (path) => path === '/usr/bin/sandbox-exec',
    srt: (platform) => {
      asked.push(platform);
      return overrides.readiness ?? { errors: [] };
    },
    asked,
    ...overrides,
  };
}

describe('sandbox support per platform', () => {
  it('macOS: srt with sandbox-exec', () => {
    expect(platformAnswer(host())).toEqual({ available: true, engine: 'srt', platform: 'darwin' });
  });

  it('macOS on Node older than 22.12: what to upgrade, and srt is not even loaded', () => {
    const old = host({ nodeVersion: '20.20.2' });
    expect(platformAnswer(old)).toEqual({
      available: false,
      reason:
        'the sandbox on macOS (srt) needs Node.js 22.12 or later, and this is Node.js 20.20.2: upgrade Node.js (https://nodejs.org, or nvm install 22), or use the desktop app, which embeds Node.js 22',
    });
    expect(old.asked).toEqual([]);
    expect(platformAnswer(host({ nodeVersion: '22.11.0' }))?.available).toBe(false);
  });

  it('macOS without sandbox-exec, or where srt says it cannot run', () => {
    expect(platformAnswer(host({ exists: () => false }))).toEqual({
      available: false,
      reason: 'the sandbox on macOS (srt) runs servers through /usr/bin/sandbox-exec, which is missing on this Mac',
    });
    expect(platformAnswer(host({ readiness: { errors: ['ripgrep (rg) not found'] } }))).toEqual({
      available: false,
      reason: 'the sandbox on macOS (srt) cannot run here: ripgrep (rg) not found',
    });
  });

  it('srt that cannot be loaded is a sentence, not a stack trace', () => {
    const broken = host({
      srt: () => {
        throw new Error("Cannot find package '@anthropic-ai/sandbox-runtime'");
      },
    });
    expect(platformAnswer(broken)).toEqual({
      available: false,
      reason: "the sandbox on macOS (srt) could not be loaded: Cannot find package '@anthropic-ai/sandbox-runtime'",
    });
  });

  it('Windows: srt once its account is set up', () => {
    const windows = host({
      platform: 'win32',
      exists: () => false,
      readiness: { errors: [], windowsProvisioned: true },
    });
    expect(platformAnswer(windows)).toEqual({ available: true, engine: 'srt', platform: 'win32' });
    expect(windows.asked).toEqual(['win32']);
  });

  it('Windows before the one-time setup: the exact command to run as administrator', () => {
    expect(WINDOWS_SETUP_COMMAND).toBe('npx @anthropic-ai/sandbox-runtime@0.0.83 windows-install');
    expect(platformAnswer(host({ platform: 'win32', readiness: { errors: [], windowsProvisioned: false } }))).toEqual({
      available: false,
      reason:
        'the sandbox on Windows (srt) needs its one-time setup, which asks for an administrator once: run `npx @anthropic-ai/sandbox-runtime@0.0.83 windows-install` in a terminal, accept the prompt, then restart Switchboard',
    });
    expect(
      platformAnswer(
        host({ platform: 'win32', readiness: { errors: ['WFP filters missing'], windowsProvisioned: true } }),
      ),
    ).toEqual({
      available: false,
      reason:
        'the sandbox on Windows (srt) cannot run here: WFP filters missing (to set it up again: `npx @anthropic-ai/sandbox-runtime@0.0.83 windows-install --force`)',
    });
    expect(platformAnswer(host({ platform: 'win32', nodeVersion: '20.11.1' }))).toMatchObject({
      available: false,
      reason: expect.stringContaining('the sandbox on Windows (srt) needs Node.js 22.12 or later'),
    });
  });

  it('Linux is bubblewrap (asked by running it, elsewhere); other systems have none', () => {
    expect(platformAnswer(host({ platform: 'linux' }))).toBeUndefined();
    expect(platformAnswer(host({ platform: 'freebsd' }))).toEqual({
      available: false,
      reason: 'no sandbox is available on freebsd (Linux with bubblewrap, macOS and Windows have one)',
    });
  });

  it('Node versions compared by major and minor', () => {
    expect(nodeAtLeast('22.12.0', 22, 12)).toBe(true);
    expect(nodeAtLeast('v24.0.0', 22, 12)).toBe(true);
    expect(nodeAtLeast('22.9.1', 22, 12)).toBe(false);
    expect(nodeAtLeast('20.20.2', 22, 12)).toBe(false);
    expect(nodeAtLeast('garbage', 22, 12)).toBe(false);
  });
});
