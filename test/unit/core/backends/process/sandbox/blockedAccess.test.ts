/**
 * Telling what a sandbox refused from a server's own words, in the forms Node,
 * Python and the shell print them; an ordinary missing file is not a refusal.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  blockOfViolation,
  findBlocked,
  describeBlock,
} from '../../../../../../electron/core/backends/process/sandbox/blockedAccess.js';
import { grantFor } from '../../../../../../shared/model/sandboxGrants.js';
import { resolveSandboxPolicy } from '../../../../../../electron/core/backends/process/sandbox/sandboxPolicy.js';

const root = mkdtempSync(join(tmpdir(), 'sandbox-blocked-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const home = join(root, 'home');
mkdirSync(join(home, '.aws'), { recursive: true });
const secret = join(home, '.aws', 'credentials');
writeFileSync(secret, 'x');
const none = resolveSandboxPolicy({
  backendId: 'b',
  resolvedCommand: '/usr/bin/node',
  args: [],
  cwd: undefined,
  setting: { enabled: true, read: [], write: [], network: 'none' },
  home,
  stateDir: join(root, 'state'),
  extraPath: [],
});

describe('what a sandbox refused', () => {
  it('a hidden file, as Node, Python and the shell say it', () => {
    for (const text of [
      `Error: ENOENT: no such file or directory, open '${secret}'`,
      `FileNotFoundError: [Errno 2] No such file or directory: '${secret}'`,
      `cat: ${secret}: No such file or directory`,
    ])
      expect(findBlocked(text, none)).toEqual([{ kind: 'read', target: secret }]);
  });

  it('a write to a read-only folder, or to a folder that is not there inside', () => {
    expect(findBlocked(`EROFS: read-only file system, open '/etc/passwd.new'`, none)).toEqual([
      { kind: 'write', target: '/etc/passwd.new' },
    ]);
    const created = join(home, '.aws', 'new-file');
    expect(findBlocked(`ENOENT: no such file or directory, open '${created}'`, none)).toEqual([
      { kind: 'write', target: created },
    ]);
  });

  it('a connection, by name or by address', () => {
    expect(findBlocked('getaddrinfo EAI_AGAIN api.github.com', none)).toEqual([
      { kind: 'connect', target: 'api.github.com' },
    ]);
    expect(findBlocked('connect ECONNREFUSED 127.0.0.1:5432', none)).toEqual([
      { kind: 'connect', target: '127.0.0.1:5432' },
    ]);
    expect(describeBlock({ kind: 'connect', target: 'api.github.com' })).toBe(
      'blocked by the sandbox: connection to api.github.com',
    );
    expect(describeBlock({ kind: 'read', target: secret })).toBe(`blocked by the sandbox: read of ${secret}`);
    expect(describeBlock({ kind: 'read', target: secret }, home)).toBe(
      'blocked by the sandbox: read of ~/.aws/credentials',
    );
    expect(describeBlock({ kind: 'write', target: '/x' }, home)).toBe('blocked by the sandbox: write to /x');
  });

  it('not a file that is missing on the host too, nor what the sandbox shows, nor a connection when the network is allowed', () => {
    expect(findBlocked(`ENOENT: no such file or directory, open '${join(root, 'nowhere', 'x')}'`, none)).toEqual([]);
    expect(findBlocked(`ENOENT: no such file or directory, open '/usr/lib/missing.so'`, none)).toEqual([]);
    expect(findBlocked('connect ECONNREFUSED 127.0.0.1:5432', { ...none, network: 'all' })).toEqual([]);
  });
});

describe('what srt reported (macOS and Windows)', () => {
  it('a refused connection from its proxies, a refused read or write from the macOS sandbox log', () => {
    expect(blockOfViolation('deny network-outbound api.github.com:443 (host is not on the allow list)')).toEqual({
      kind: 'connect',
      target: 'api.github.com:443',
    });
    expect(
      blockOfViolation('2026-12-07 Sandbox: node(4242) deny(1) file-read-data /Users/ada/.aws/credentials'),
    ).toEqual({ kind: 'read', target: '/Users/ada/.aws/credentials' });
    expect(blockOfViolation('node(4242) deny(1) file-write-create /Users/ada/Library/evil.plist')).toEqual({
      kind: 'write',
      target: '/Users/ada/Library/evil.plist',
    });
    expect(blockOfViolation('deny(1) file-read* /Users/ada/My Notes/todo.txt')).toEqual({
      kind: 'read',
      target: '/Users/ada/My Notes/todo.txt',
    });
  });

  it('says each in the same sentence as on Linux, and offers the grant that lifts exactly it', () => {
    const said = (line: string) => {
      const block = blockOfViolation(line);
      return block && { sentence: describeBlock(block, '/Users/ada'), grant: grantFor(block) };
    };
    expect(said('deny network-outbound api.github.com:443 (host is not on the allow list)')).toEqual({
      sentence: 'blocked by the sandbox: connection to api.github.com:443',
      grant: { kind: 'host', target: 'api.github.com:443' },
    });
    expect(said('2026-12-07 Sandbox: node(4242) deny(1) file-read-data /Users/ada/.aws/credentials')).toEqual({
      sentence: 'blocked by the sandbox: read of ~/.aws/credentials',
      grant: { kind: 'read', target: '/Users/ada/.aws/credentials' },
    });
    expect(said('node(4242) deny(1) file-write-create /Users/ada/Library/evil.plist')).toEqual({
      sentence: 'blocked by the sandbox: write to ~/Library/evil.plist',
      grant: { kind: 'write', target: '/Users/ada/Library/evil.plist' },
    });
    expect(said('deny(1) file-write-unlink /private/tmp/x')).toEqual({
      sentence: 'blocked by the sandbox: write to /private/tmp/x',
      grant: { kind: 'write', target: '/private/tmp/x' },
    });
  });

  it('what no grant could lift is not a refusal to explain', () => {
    expect(blockOfViolation('node(4242) deny(1) mach-lookup com.apple.coreservices.appleevents')).toBeUndefined();
    expect(blockOfViolation('deny(1) signal')).toBeUndefined();
  });
});
