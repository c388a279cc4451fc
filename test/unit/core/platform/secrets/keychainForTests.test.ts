/**
 * When keychain tests run, skip or must run (test/helpers/keychain.ts), and
 * that a keytar that cannot load says what to do.
 */
import { describe, expect, it } from 'vitest';
import { KeytarStore } from '../../../../../electron/core/platform/secrets/keytarStore.js';
import type { SecretStoreStatus } from '../../../../../electron/core/platform/secrets/secretStore.js';
import { keychainForTests } from '../../../../helpers/keychain.js';

const noKeytar = new KeytarStore({ load: () => Promise.reject(new Error('Cannot find module keytar.node')) });
const noService: { status(): Promise<SecretStoreStatus> } = {
  status: async () => ({ available: false, backend: 'keytar (Secret Service)', reason: 'no D-Bus' }),
};

describe('keychain tests', () => {
  it('skip outside CI when keytar cannot load, saying why and what to do', async () => {
    const decision = await keychainForTests(noKeytar, { SWITCHBOARD_REQUIRE_KEYCHAIN: '1' });
    expect(decision.required).toBe(false);
    expect(decision.titleSuffix).toMatch(
      /^ \(SKIPPED: keytar cannot be loaded: keytar could not be loaded \(Cannot find module keytar\.node\); to build it, .*npm rebuild keytar/,
    );
    expect(await noKeytar.loadProblem()).toContain('npm rebuild keytar');
  });

  it('must run (and so fail) in CI when keytar cannot load', async () => {
    const decision = await keychainForTests(noKeytar, { CI: 'true' });
    expect(decision).toMatchObject({ required: true, skip: undefined, titleSuffix: '' });
  });

  it('skip without a Secret Service unless keyring-run provides one, and skip when told to', async () => {
    expect((await keychainForTests(noService, {})).skip).toBe('no Secret Service: no D-Bus');
    expect((await keychainForTests(noService, { SWITCHBOARD_REQUIRE_KEYCHAIN: '1' })).required).toBe(true);
    const told = await keychainForTests(noKeytar, {
      CI: 'true',
      SWITCHBOARD_SKIP_KEYCHAIN_TESTS: 'keytar built for Node 20',
    });
    expect(told).toMatchObject({ required: false, skip: 'keytar built for Node 20' });
  });
});
