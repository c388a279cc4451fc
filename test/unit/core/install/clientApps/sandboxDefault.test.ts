/**
 * A newly added stdio server is sandboxed by default, with exactly the paths
 * the user gave it as grants; an entry that says `sandbox` keeps its word,
 * and remote servers and container runtimes get none, nor does any server
 * where no sandbox can run. The machine's answer is given (asking it runs
 * bubblewrap, a process: test/integration/backends/sandbox.test.ts does).
 */
import { describe, expect, it } from 'vitest';
import type { SandboxSupport } from '../../../../../electron/core/backends/index.js';
import {
  withDefaultSandbox as withDefaultSandboxOn,
  type SandboxGrants,
} from '../../../../../electron/core/install/clientApps/sandboxDefault.js';
import { parseBackend } from '../../../../../electron/core/platform/config/schema.js';

const LINUX: SandboxSupport = { available: true, engine: 'bubblewrap', bwrap: '/usr/bin/bwrap' };
const MACOS: SandboxSupport = { available: false, reason: 'sandboxing is not supported on macOS yet' };
/** On a machine where bubblewrap runs. */
const withDefaultSandbox = (entry: Record<string, unknown>, grants?: SandboxGrants) =>
  withDefaultSandboxOn(entry, grants, () => LINUX);

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

  it('gives none where no sandbox can run (the server would never start)', () => {
    expect(withDefaultSandboxOn({ command: 'npx' }, { write: ['/home/u/notes'] }, () => MACOS)).not.toHaveProperty(
      'sandbox',
    );
  });

  it('gives remote servers and container runtimes none', () => {
    expect(withDefaultSandbox({ url: 'https://example.com/mcp' })).not.toHaveProperty('sandbox');
    expect(withDefaultSandbox({ command: 'docker', args: ['run', '-i', 'img'] })).not.toHaveProperty('sandbox');
    expect(withDefaultSandbox({ command: '/usr/bin/podman' })).not.toHaveProperty('sandbox');
  });
});
