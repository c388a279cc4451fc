/**
 * Whether the keychain tests run, skip (saying why) or must run, in one
 * place (issue 18 item 9):
 * - `SWITCHBOARD_SKIP_KEYCHAIN_TESTS=<reason>`: skip with that reason (CI's
 *   second Node, for which keytar was not built);
 * - keytar cannot be loaded: outside CI skip with keytar's reason and what to
 *   do; in CI (`CI=true`) they run, and fail, since CI must have it;
 * - keytar loads but no Secret Service answers: skip, unless
 *   `SWITCHBOARD_REQUIRE_KEYCHAIN=1` (keyring-run.mjs started one).
 */
import type { KeytarStore, SecretStoreStatus } from '../../electron/core/platform/index.js';

/** What a keychain test file needs to decide. */
export interface KeychainForTests {
  status: SecretStoreStatus;
  /** The tests must run (and fail) even though the keychain is not available. */
  required: boolean;
  /** Why they skip, or undefined when they run. */
  skip: string | undefined;
  /** ` (SKIPPED: <why>)` for a describe title, or ''. */
  titleSuffix: string;
}

/** Decides for `store` (a KeytarStore on the test's own service). */
export async function keychainForTests(
  store: Pick<KeytarStore, 'status'>,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<KeychainForTests> {
  const status = await store.status();
  const forced = environment['SWITCHBOARD_SKIP_KEYCHAIN_TESTS']?.trim();
  const keytarMissing = !status.available && status.backend === 'none';
  const required = forced
    ? false
    : keytarMissing
      ? environment['CI'] === 'true'
      : environment['SWITCHBOARD_REQUIRE_KEYCHAIN'] === '1';
  const skip =
    forced ||
    (status.available || required
      ? undefined
      : keytarMissing
        ? `keytar cannot be loaded: ${status.reason ?? 'unknown'}`
        : `no Secret Service: ${status.reason ?? 'unknown'}`);
  return {
    status: forced ? { ...status, available: false } : status,
    required,
    skip,
    titleSuffix: skip ? ` (SKIPPED: ${skip})` : '',
  };
}
