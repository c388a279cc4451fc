import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeKey, loadCredentialKey } from '../../../../../electron/core/platform/auth/credentialKey.js';
import { tempDir } from '../../../../helpers/basics.js';

const dir = await tempDir();
afterAll(() => dir.cleanup());

describe('the credential key', () => {
  it('takes 32 bytes as base64, base64url or hex, and nothing shorter', () => {
    const key = randomBytes(32);
    for (const text of [
      key.toString('base64'),
      key.toString('base64url'),
      key.toString('hex'),
      ` ${key.toString('hex')}\n`,
    ]) {
      expect(Buffer.from(decodeKey(text) ?? [])).toEqual(key);
    }
    expect(decodeKey(randomBytes(16).toString('base64'))).toBeUndefined();
    expect(decodeKey('correct horse battery staple')).toBeUndefined();
  });

  it('comes from SWITCHBOARD_TOKEN_KEY before the file; a missing or bad one is a problem naming where to put it, never the key', async () => {
    const file = join(dir.path, 'key');
    const key = randomBytes(32);
    await writeFile(file, key.toString('base64'));
    expect(Buffer.from((await loadCredentialKey({}, file)).key ?? [])).toEqual(key);
    const fromEnv = randomBytes(32);
    const env = { SWITCHBOARD_TOKEN_KEY: fromEnv.toString('hex') };
    expect(Buffer.from((await loadCredentialKey(env, file)).key ?? [])).toEqual(fromEnv);
    expect((await loadCredentialKey({}, undefined)).problem).toMatch(
      /SWITCHBOARD_TOKEN_KEY or proxy\.credentialKeyFile/,
    );
    expect((await loadCredentialKey({}, join(dir.path, 'absent'))).problem).toMatch(/cannot read .*absent \(ENOENT\)/);
    const short = 'c2hvcnQ=';
    const bad = await loadCredentialKey({ SWITCHBOARD_TOKEN_KEY: short }, file);
    expect(bad.problem).toMatch(/must be 32 bytes/);
    expect(bad.problem).not.toContain(short);
  });
});

describe('the credential keys of a rotation', () => {
  it('reads the new key first and the previous ones after it, from the variable or the file; one bad key is a problem', async () => {
    const [next, old, older] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const env = { SWITCHBOARD_TOKEN_KEY: `${next.toString('base64')} ${old.toString('hex')}` };
    const fromEnv = await loadCredentialKey(env, undefined);
    expect(Buffer.from(fromEnv.key ?? [])).toEqual(next);
    expect(fromEnv.previous?.map((key) => Buffer.from(key))).toEqual([old]);
    const file = join(dir.path, 'rotating');
    await writeFile(file, `${next.toString('base64')}\n${old.toString('base64')},${older.toString('base64url')}\n`);
    expect((await loadCredentialKey({}, file)).previous?.map((key) => Buffer.from(key))).toEqual([old, older]);
    const bad = await loadCredentialKey({ SWITCHBOARD_TOKEN_KEY: `${next.toString('base64')} c2hvcnQ=` }, undefined);
    expect(bad.problem).toMatch(/the new key first, then the old ones/);
    expect(bad.problem).not.toContain(next.toString('base64'));
  });
});
