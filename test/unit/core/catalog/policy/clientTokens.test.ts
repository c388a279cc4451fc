/**
 * Client tokens seen by two processes: what one issues or revokes (the CLI's
 * `install`), the other (a running instance) reports at once.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ClientTokens } from '../../../../../electron/core/catalog/policy/clientTokens.js';
import { tempDir } from '../../../../helpers/basics.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(() => cleanup?.());

describe('ClientTokens.has across processes', () => {
  it('reports a token another writer issued after this one loaded, and its revocation', async () => {
    const dir = await tempDir();
    cleanup = dir.cleanup;
    const file = join(dir.path, 'client-tokens.json');
    const running = new ClientTokens(file);
    await running.load();
    const cli = new ClientTokens(file);
    expect(running.has('cursor')).toBe(false);
    await cli.issue('cursor');
    expect(running.has('cursor')).toBe(true);
    expect(running.list().map((entry) => entry.client)).toEqual(['cursor']);
    await cli.revoke('cursor');
    expect(running.has('cursor')).toBe(false);
  });
});
