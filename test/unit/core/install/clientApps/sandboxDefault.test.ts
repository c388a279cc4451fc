/**
 * A newly added stdio server is sandboxed by default, with exactly the paths
 * the user gave it as grants; an entry that says `sandbox` keeps its word,
 * and remote servers and container runtimes get none.
 */
import { describe, expect, it } from 'vitest';
import {
  refuseWithoutSandbox,
  sandboxBlocker,
  withDefaultSandbox,
} from '../../../../../electron/core/install/clientApps/sandboxDefault.js';
import { ErrorCode, ErrorFix, SwitchboardError } from '../../../../../shared/errors.js';
import { errorLine } from '../../../../../electron/cli/io.js';
import { parseBackend } from '../../../../../electron/core/platform/config/schema.js';

describe('withDefaultSandbox', () => {
  it('turns the sandbox on for a stdio server without grants', () => {
    expect(withDefaultSandbox({ command: 'npx', args: ['-y', 'pkg'] })).toEqual({
      command: 'npx',
      args: ['-y', 'pkg'],
      sandbox: true,
    });
  });

  it('grants the folders given to write and the files to read, in a form the config accepts', () => {
    const entry = withDefaultSandbox(
      { command: 'npx' },
      { write: ['/home/u/notes/', '~/projects', '/home/u/notes'], read: ['/home/u/key.pem', '/home/u/notes'] },
    );
    expect(entry['sandbox']).toEqual({ read: ['/home/u/key.pem'], write: ['/home/u/notes', '~/projects'] });
    expect(parseBackend('x', entry).backend).toMatchObject({
      sandbox: { enabled: true, read: ['/home/u/key.pem'], write: ['/home/u/notes', '~/projects'], network: 'none' },
    });
  });

  it('leaves out paths a sandbox setting cannot hold (relative, .., unexpanded variables)', () => {
    const entry = withDefaultSandbox({ command: 'uvx' }, { write: ['notes', '/a/../b', '${HOME}/x'] });
    expect(entry['sandbox']).toBe(true);
  });

  it("keeps an entry's own sandbox setting", () => {
    expect(withDefaultSandbox({ command: 'node', sandbox: false }, { write: ['/tmp/x'] })['sandbox']).toBe(false);
  });

  it('gives remote servers and container runtimes none', () => {
    expect(withDefaultSandbox({ url: 'https://example.com/mcp' })).not.toHaveProperty('sandbox');
    expect(withDefaultSandbox({ command: 'docker', args: ['run', '-i', 'img'] })).not.toHaveProperty('sandbox');
    expect(withDefaultSandbox({ command: '/usr/bin/podman' })).not.toHaveProperty('sandbox');
  });
});

describe('where no sandbox can run, the add says what to install, and unsandboxed is a choice', () => {
  const noBubblewrap = {
    available: false as const,
    reason: 'bubblewrap is not installed (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap)',
  };
  const bubblewrap = { available: true as const, engine: 'bubblewrap' as const, bwrap: '/usr/bin/bwrap' };
  const srt = { available: true as const, engine: 'srt' as const, platform: 'darwin' as const };
  /** A PATH with nothing on it: no socat. */
  const bare = { PATH: '/nonexistent-bin' };

  it('a new entry is saved sandboxed whether or not a sandbox runs here; unsandboxed only by choice, and recorded', () => {
    expect(withDefaultSandbox({ command: 'npx' })['sandbox']).toBe(true);
    expect(withDefaultSandbox({ command: 'npx' }, { write: ['/home/u/notes'] }, { unsandboxed: true })).toEqual({
      command: 'npx',
      sandbox: false,
    });
  });

  it('names what to install: bubblewrap, or socat for a package runner (it reaches its registry through a host list)', () => {
    expect(sandboxBlocker({ command: 'npx', sandbox: true }, bare, noBubblewrap)).toBe(noBubblewrap.reason);
    expect(sandboxBlocker({ command: 'npx', sandbox: true }, bare, bubblewrap)).toBe(
      'its list of hosts (a package runner reaches its registry through one) needs socat, which is not installed (Debian/Ubuntu: apt install socat; Fedora: dnf install socat)',
    );
    expect(sandboxBlocker({ command: 'node', sandbox: { network: ['api.github.com'] } }, bare, bubblewrap)).toContain(
      'needs socat',
    );
    expect(sandboxBlocker({ command: 'node', sandbox: true }, bare, bubblewrap)).toBeUndefined();
    expect(sandboxBlocker({ command: 'node', sandbox: { network: 'all' } }, bare, srt)).toContain(
      'cannot give one server the whole network',
    );
    expect(sandboxBlocker({ command: 'npx', sandbox: true }, bare, srt)).toBeUndefined();
  });

  it('nothing blocks a server the user chose to run unsandboxed, a remote one, or a container', () => {
    expect(sandboxBlocker({ command: 'npx', sandbox: false }, bare, noBubblewrap)).toBeUndefined();
    expect(sandboxBlocker({ command: 'npx', sandbox: { enabled: false } }, bare, noBubblewrap)).toBeUndefined();
    expect(sandboxBlocker({ url: 'https://example.com/mcp' }, bare, noBubblewrap)).toBeUndefined();
    expect(sandboxBlocker({ command: 'docker', sandbox: true }, bare, noBubblewrap)).toBeUndefined();
  });

  it('the refusal says what to install and how to choose to run it unsandboxed', () => {
    let refused: unknown;
    try {
      refuseWithoutSandbox('memory', { command: 'npx', sandbox: true }, bare, noBubblewrap);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(SwitchboardError);
    expect((refused as SwitchboardError).code).toBe(ErrorCode.SandboxUnavailable);
    expect((refused as SwitchboardError).message).toBe(
      '"memory" would run sandboxed, as every new server does, but bubblewrap is not installed (Debian/Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap). Install that and add it again, or add it unsandboxed: it then runs with your rights, recorded on it as "sandbox": false',
    );
    // The fix as data: the CLI names its flag, the UI its box; the message neither.
    expect((refused as SwitchboardError).data?.['fix']).toBe(ErrorFix.RunUnsandboxed);
    expect(errorLine((refused as SwitchboardError).toData())).toMatch(/; to add it unsandboxed, pass --unsandboxed$/);
    expect(() => refuseWithoutSandbox('memory', { command: 'npx', sandbox: false }, bare, noBubblewrap)).not.toThrow();
  });
});
