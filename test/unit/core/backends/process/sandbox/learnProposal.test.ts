/**
 * The smallest grant a learned run proposes (learnProposal.ts) and its diff
 * against the current setting (learnDiff.ts): what the default sandbox gives
 * is dropped, a changed file alone, a folder it made entries in whole, many
 * reads in one folder as the folder, nothing repeated under another grant,
 * `~` for the home; and the setting accepting writes.
 */
import { describe, expect, it } from 'vitest';
import { blockOfViolation } from '../../../../../../electron/core/backends/process/sandbox/blockedAccess.js';
import type { FileAccess } from '../../../../../../electron/core/backends/process/sandbox/learnTrace.js';
import {
  grantOfBlock,
  proposeGrant,
  type ProposalInput,
} from '../../../../../../electron/core/backends/process/sandbox/learnProposal.js';
import {
  acceptedSetting,
  grantDiff,
  renderDiff,
} from '../../../../../../electron/core/backends/process/sandbox/learnDiff.js';
import type { SandboxPolicy } from '../../../../../../electron/core/backends/process/sandbox/sandboxPolicy.js';

const home = '/home/u';
const policy: SandboxPolicy = {
  backendId: 's',
  mounts: [
    { source: '/usr', target: '/usr', mode: 'ro', optional: true },
    { source: '/etc', target: '/etc', mode: 'ro', optional: true },
    { source: '/home/u/.nvm/versions/node/v22', target: '/home/u/.nvm/versions/node/v22', mode: 'ro', optional: true },
    { source: '/tmp/project', target: '/tmp/project', mode: 'ro', optional: true },
  ],
  links: [],
  privateHome: '/state/sandboxes/s/home',
  privateTmp: '/state/sandboxes/s/tmp',
  home,
  cwd: home,
  network: 'none',
};

const read = (path: string, directory = false): FileAccess => ({
  path,
  kind: 'read',
  changedEntry: false,
  directory,
  call: 'openat',
});
const write = (path: string, changedEntry = false, directory = false): FileAccess => ({
  path,
  kind: 'write',
  changedEntry,
  directory,
  call: changedEntry ? 'rename' : 'openat',
});

function propose(files: FileAccess[], extra: Partial<ProposalInput> = {}) {
  return proposeGrant({
    trace: { files, connects: [] },
    hosts: [],
    policy,
    ignore: ['/state/sandboxes/s/learn-1'],
    defaultHosts: [],
    ownAddresses: ['127.0.0.1:3128'],
    ...extra,
  });
}

describe('proposeGrant', () => {
  it('proposes nothing for what the defaults give', () => {
    const grant = propose([
      read('/usr/lib/node.so'),
      read('/etc/ssl/openssl.cnf'),
      read('/home/u/.nvm/versions/node/v22/lib/x.js'),
      read('/tmp/project/index.js'),
      read('/home/u/.nvm'), // a parent of a mount
      read('/proc/self/maps'),
      write('/dev/null'),
      write('/tmp/scratch.json', true), // the private /tmp takes it
      read('/tmp/scratch.json'), // ...and has it
      write('/state/sandboxes/s/learn-1/trace'),
    ]);
    expect(grant).toEqual({ read: [], write: [], network: [], addresses: [] });
  });

  it('grants a changed file alone, and the folder it made entries in whole', () => {
    const grant = propose([
      read('/home/u/notes/memory.json'),
      write('/home/u/notes/memory.json.tmp-1', false),
      write('/home/u/notes/memory.json.tmp-1', true),
      write('/home/u/notes/memory.json', true),
      write('/home/u/.gitconfig'),
      write('/tmp/project/out.txt', true), // a default folder is read-only: writing it needs a grant
    ]);
    expect(grant.write).toEqual(['/tmp/project', '~/.gitconfig', '~/notes']);
    expect(grant.read).toEqual([]);
  });

  it('keeps the file alone where its folder would be the whole home or a top-level folder', () => {
    const grant = propose([write('/home/u/memory.json', true), write('/srv/log.txt', true)]);
    expect(grant.write).toEqual(['/srv/log.txt', '~/memory.json']);
  });

  it('grants a folder it made, not its parent', () => {
    const grant = propose([write('/home/u/.cache/app', true, true), write('/home/u/.cache/app/db', true)]);
    expect(grant.write).toEqual(['~/.cache/app']);
  });

  it('reads: files alone when few, the folder when many or listed, nothing under a write', () => {
    const grant = propose([
      read('/home/u/.aws/config'),
      read('/data/set/a'),
      read('/data/set/b'),
      read('/data/set/c'),
      read('/data/set/d'),
      read('/home/u/docs', true),
      read('/home/u/docs/x.md'),
      write('/home/u/out/r.txt', true),
      read('/home/u/out/r.txt'),
    ]);
    expect(grant.read).toEqual(['/data/set', '~/.aws/config', '~/docs']);
    expect(grant.write).toEqual(['~/out']);
  });

  it('proposes the hosts it reached by name, not the registry it already may, and lists bare addresses apart', () => {
    const grant = propose([], {
      hosts: ['api.github.com:443', 'registry.npmjs.org:443', 'api.github.com:443', 'example.com:80'],
      defaultHosts: ['registry.npmjs.org'],
      trace: {
        files: [],
        connects: [
          { address: '127.0.0.1', port: 3128 },
          { address: '10.0.0.9', port: 5432 },
        ],
      },
    });
    expect(grant.network).toEqual(['api.github.com:443', 'example.com:80']);
    expect(grant.addresses).toEqual(['10.0.0.9:5432']);
  });
});

describe('grantDiff', () => {
  const learned = { read: ['~/.aws/config'], write: ['~/notes'], network: ['api.github.com:443'], addresses: [] };

  it('against no setting: everything added, the sandbox turned on', () => {
    const diff = grantDiff(undefined, learned);
    expect(diff.turnsOn).toBe(true);
    expect(diff.read).toEqual([{ mark: '+', value: '~/.aws/config' }]);
    expect(acceptedSetting(diff)).toEqual({
      enabled: true,
      read: ['~/.aws/config'],
      write: ['~/notes'],
      network: ['api.github.com:443'],
    });
    expect(renderDiff(diff)).toBe(
      [
        '+ sandbox: on',
        'read:',
        '  + ~/.aws/config',
        'write:',
        '  + ~/notes',
        'network:',
        '  + api.github.com:443',
        '',
      ].join('\n'),
    );
  });

  it('against grants: used ones kept, unused ones marked and dropped only on replace', () => {
    const diff = grantDiff(
      { enabled: true, read: ['~/.aws', '~/old'], write: [], network: ['api.github.com'] },
      learned,
    );
    expect(diff.read).toEqual([
      { mark: '=', value: '~/.aws' },
      { mark: '?', value: '~/old' },
    ]);
    expect(diff.network).toEqual([{ mark: '=', value: 'api.github.com' }]);
    expect(diff.unchanged).toBe(false);
    expect(acceptedSetting(diff)).toEqual({
      enabled: true,
      read: ['~/.aws', '~/old'],
      write: ['~/notes'],
      network: ['api.github.com'],
    });
    expect(acceptedSetting(diff, true)).toEqual({
      enabled: true,
      read: ['~/.aws'],
      write: ['~/notes'],
      network: ['api.github.com'],
    });
  });

  it('a read under a write grant needs nothing more, and uses that grant', () => {
    const diff = grantDiff(
      { enabled: true, read: [], write: ['~/notes'], network: 'none' },
      { read: ['~/notes/memory.json'], write: [], network: [], addresses: [] },
    );
    expect(diff.read).toEqual([]);
    expect(diff.write).toEqual([{ mark: '=', value: '~/notes' }]);
    expect(diff.unchanged).toBe(true);
  });

  it('nothing learned and the sandbox on: unchanged', () => {
    const diff = grantDiff(
      { enabled: true, read: [], write: [], network: 'none' },
      { read: [], write: [], network: [], addresses: [] },
    );
    expect(diff.unchanged).toBe(true);
    expect(acceptedSetting(diff)).toEqual({ enabled: true, read: [], write: [], network: 'none' });
    expect(renderDiff(diff)).toContain('read: (nothing beyond the defaults)');
  });
});

describe('grantOfBlock: what learning from refusals grants for each one (macOS and Windows, under srt)', () => {
  const home = '/Users/ada';
  const folders = new Set(['/Users/ada/projects']);
  const grantOf = (line: string) => {
    const block = blockOfViolation(line);
    if (!block) throw new Error(`no refusal in: ${line}`);
    return grantOfBlock(block, home, (path) => folders.has(path));
  };

  it('maps srt’s record, as the macOS sandbox log and srt’s proxies word it, to one grant entry each', () => {
    expect(grantOf('Sandbox: node(4242) deny(1) file-read-data /Users/ada/.aws/credentials')).toEqual({
      key: 'read',
      entry: '~/.aws/credentials',
    });
    // A file it could not create: its folder (a save by rename needs the folder).
    expect(grantOf('Sandbox: node(4242) deny(1) file-write-create /Users/ada/memory/memory.json')).toEqual({
      key: 'write',
      entry: '~/memory',
    });
    expect(grantOf('Sandbox: node(4242) deny(1) file-write-unlink /Users/ada/projects')).toEqual({
      key: 'write',
      entry: '~/projects',
    });
    expect(grantOf('Sandbox: python3(7) deny(1) file-read-metadata /opt/data/index.db')).toEqual({
      key: 'read',
      entry: '/opt/data/index.db',
    });
    expect(grantOf('deny network-outbound api.github.com:443 (host is not on the allow list)')).toEqual({
      key: 'network',
      entry: 'api.github.com:443',
    });
  });
});
