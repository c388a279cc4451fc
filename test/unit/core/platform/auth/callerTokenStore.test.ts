/**
 * Per-caller records across a rotation of the operator's key, in a real
 * file: a record sealed under the previous key is read with it and sealed
 * again under the new one in its place (so the previous key can go, and
 * nobody signs in again); a record written meanwhile is never overwritten
 * by that re-sealing; `reseal` moves every record at once and counts those
 * no key opens.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CallerTokenStore,
  UnreadableRecordError,
} from '../../../../../electron/core/platform/auth/callerTokenStore.js';
import { CallerRecordsFile } from '../../../../../electron/core/platform/auth/callerRecordsFile.js';
import { tempDir } from '../../../../helpers/basics.js';

const dir = await tempDir();
afterAll(() => dir.cleanup());

const tokens = (access: string) => ({ access_token: access, token_type: 'Bearer' });
const client = { client_id: 'switchboard' };

describe('caller records across a key rotation', () => {
  it('reads a record of the previous key and seals it again under the new one, in its place', async () => {
    const path = join(dir.path, 'one.json');
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const before = new CallerTokenStore(path, oldKey);
    await before.saveTokens('gh', 'principal:alice', tokens('a-1'));
    await before.saveClient('gh', client);

    const rotated = new CallerTokenStore(path, newKey, undefined, undefined, [oldKey]);
    expect(await rotated.tokens('gh', 'principal:alice')).toEqual(tokens('a-1'));
    expect(await rotated.client('gh')).toEqual(client);
    // Sealed again under the new key: the new key alone opens them, the old one no more.
    const after = new CallerTokenStore(path, newKey);
    expect(await after.tokens('gh', 'principal:alice')).toEqual(tokens('a-1'));
    expect(await after.client('gh')).toEqual(client);
    await expect(before.tokens('gh', 'principal:alice')).rejects.toBeInstanceOf(UnreadableRecordError);
  });

  it('never overwrites a record written since it was read (a refresh elsewhere)', async () => {
    const path = join(dir.path, 'race.json');
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    await new CallerTokenStore(path, oldKey).saveTokens('gh', 'principal:bob', tokens('b-1'));
    const records = new CallerRecordsFile(path);
    const read = (await records.token('gh', 'principal:bob'))!;
    // Another writer (a refresh) puts new tokens in the slot after that read.
    await new CallerTokenStore(path, newKey).saveTokens('gh', 'principal:bob', tokens('b-2'));
    expect(await records.replace('gh', 'principal:bob', read, 'stale')).toBe(false);
    expect(await new CallerTokenStore(path, newKey).tokens('gh', 'principal:bob')).toEqual(tokens('b-2'));
  });

  it('reseals every record of the backends at once, counting those no key opens', async () => {
    const path = join(dir.path, 'all.json');
    const [oldKey, newKey, lostKey] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const before = new CallerTokenStore(path, oldKey);
    for (const caller of ['principal:a', 'principal:b']) await before.saveTokens('gh', caller, tokens(caller));
    await before.saveClient('gh', client);
    await new CallerTokenStore(path, lostKey).saveTokens('gh', 'principal:lost', tokens('x'));
    await new CallerTokenStore(path, newKey).saveTokens('linear', 'principal:a', tokens('l'));

    const rotated = new CallerTokenStore(path, newKey, undefined, undefined, [oldKey]);
    expect(await rotated.reseal(['gh', 'linear'])).toEqual({ resealed: 3, unreadable: 1 });
    expect(await rotated.reseal(['gh', 'linear'])).toEqual({ resealed: 0, unreadable: 1 });
    const after = new CallerTokenStore(path, newKey);
    expect(await after.tokens('gh', 'principal:b')).toEqual(tokens('principal:b'));
    expect(await after.client('gh')).toEqual(client);
  });
});

describe('who signed in, kept with the tokens', () => {
  it('records the person and time of a sign-in, keeps them across a refresh, and replaces them at the next sign-in', async () => {
    const store = new CallerTokenStore(join(dir.path, 'who.json'), randomBytes(32));
    const caller = 'principal:https://login.example.com#a1';
    await store.saveTokens('gh', caller, tokens('a-1'), { at: 1_000, person: 'alice@example.com' });
    // A refresh saves new tokens without a sign-in: who and when stay.
    await store.saveTokens('gh', caller, tokens('a-2'));
    expect(await store.record('gh', caller)).toEqual({
      tokens: tokens('a-2'),
      signedIn: { at: 1_000, person: 'alice@example.com' },
    });
    await store.saveTokens('gh', caller, tokens('a-3'), { at: 2_000 });
    expect((await store.record('gh', caller))?.signedIn).toEqual({ at: 2_000 });
    // The file holds neither in the clear.
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(join(dir.path, 'who.json'), 'utf8')).not.toContain('alice@example.com');
  });
});
