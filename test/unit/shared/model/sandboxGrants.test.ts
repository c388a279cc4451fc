/**
 * The one sentence of a sandbox refusal and the grant that lifts exactly it,
 * as the core, the CLI and the UI all say and save them: a read adds its
 * path to `sandbox.read`, a write its path to `sandbox.write`, a connection
 * its host to the network's list; revoking takes exactly that away (the last
 * host leaves the network `none`), and the rest of the entry is kept.
 */
import { describe, expect, it } from 'vitest';
import { blockSentence, shortPath } from '../../../../shared/model/sandboxBlock.js';
import {
  grantFor,
  grantsOf,
  entrySandbox,
  holds,
  withGrant,
  withoutGrant,
} from '../../../../shared/model/sandboxGrants.js';

const ENTRY = { command: 'npx', args: ['-y', 'srv'], env: { MODE: 'x' } };

describe('a refusal in one sentence', () => {
  it('says the path under the home as ~, anything else as it is', () => {
    expect(blockSentence({ kind: 'read', target: '/home/u/.aws/credentials' }, '/home/u')).toBe(
      'blocked by the sandbox: read of ~/.aws/credentials',
    );
    expect(blockSentence({ kind: 'write', target: '/x' }, '/home/u')).toBe('blocked by the sandbox: write to /x');
    expect(blockSentence({ kind: 'connect', target: 'api.github.com' })).toBe(
      'blocked by the sandbox: connection to api.github.com',
    );
    expect(shortPath('/home/user2/x', '/home/u')).toBe('/home/user2/x');
    expect(shortPath('/home/u/', '/home/u/')).toBe('~/');
  });
});

describe('the grant of a refusal', () => {
  it('adds exactly what was refused, keeping the rest of the entry and its sandbox on or off', () => {
    const read = withGrant(ENTRY, grantFor({ kind: 'read', target: '/home/u/.aws/credentials' }));
    expect(read).toEqual({ ...ENTRY, sandbox: { read: ['/home/u/.aws/credentials'] } });
    const write = withGrant(read, grantFor({ kind: 'write', target: '/home/u/out/report.txt' }));
    expect(write['sandbox']).toEqual({ read: ['/home/u/.aws/credentials'], write: ['/home/u/out/report.txt'] });
    const host = withGrant(write, grantFor({ kind: 'connect', target: '127.0.0.1:5432' }));
    expect(entrySandbox(host)).toEqual({
      enabled: true,
      read: ['/home/u/.aws/credentials'],
      write: ['/home/u/out/report.txt'],
      network: ['127.0.0.1:5432'],
    });
    expect(withGrant(host, { kind: 'host', target: '127.0.0.1:5432' })).toEqual(host);
    expect(withGrant({ ...ENTRY, sandbox: { enabled: false } }, { kind: 'read', target: '/a' })['sandbox']).toEqual({
      enabled: false,
      read: ['/a'],
    });
    // No setting of its own, unsandboxed by the default: the grant does not turn it on.
    expect(withGrant(ENTRY, { kind: 'read', target: '/a' }, false)['sandbox']).toEqual({
      enabled: false,
      read: ['/a'],
    });
    expect(withGrant({ ...ENTRY, sandbox: { network: 'all' } }, { kind: 'host', target: 'x' })['sandbox']).toEqual({
      network: 'all',
    });
  });

  it('lists, holds and revokes each grant', () => {
    const entry = { ...ENTRY, sandbox: { read: ['/a'], write: ['/b'], network: ['h.example', 'i.example'] } };
    expect(grantsOf(entrySandbox(entry))).toEqual([
      { kind: 'read', target: '/a' },
      { kind: 'write', target: '/b' },
      { kind: 'host', target: 'h.example' },
      { kind: 'host', target: 'i.example' },
    ]);
    expect(holds(entry, { kind: 'write', target: '/b' })).toBe(true);
    expect(holds(entry, { kind: 'read', target: '/b' })).toBe(false);
    const fewer = withoutGrant(withoutGrant(entry, { kind: 'read', target: '/a' }), {
      kind: 'host',
      target: 'h.example',
    });
    expect(fewer['sandbox']).toEqual({ write: ['/b'], network: ['i.example'] });
    const none = withoutGrant(withoutGrant(fewer, { kind: 'write', target: '/b' }), {
      kind: 'host',
      target: 'i.example',
    });
    expect(none).toEqual({ ...ENTRY, sandbox: true });
    expect(withoutGrant({ ...ENTRY, sandbox: { network: 'all' } }, { kind: 'host', target: '*' })['sandbox']).toBe(
      true,
    );
    expect(withoutGrant(ENTRY, { kind: 'read', target: '/a' })).toEqual(ENTRY);
  });
});
