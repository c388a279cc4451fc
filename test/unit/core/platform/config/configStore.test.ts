/**
 * The config store on real files: writes patch what is on disk, a file that
 * does not parse is never replaced, backups are kept (the last 20) and
 * restored, stale temp files go at start.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KEPT_BACKUPS } from '../../../../../electron/core/platform/config/configBackups.js';
import { ConfigStore } from '../../../../../electron/core/platform/config/configStore.js';
import { tempDir } from '../../../../helpers/basics.js';

describe('ConfigStore', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let path: string;
  let store: ConfigStore;

  beforeEach(async () => {
    dir = await tempDir();
    path = join(dir.path, 'config.json');
    store = new ConfigStore(path, undefined, { stateDir: join(dir.path, 'state') });
  });
  afterEach(() => dir.cleanup());

  it('applies its change to the file as it is now, keeping what others wrote and how', async () => {
    await store.load();
    const handEdited = '{\n    "mcpServers": { "mine": { "command": "a" } },\n    "$schema": "x"\n}\n';
    await writeFile(path, handEdited);
    await store.updateSection('policy', (policy) => ({ ...policy, defaultRule: 'deny' }));
    const text = await readFile(path, 'utf8');
    expect(text.startsWith('{\n    "mcpServers": { "mine": { "command": "a" } },\n    "$schema": "x",\n')).toBe(true);
    expect(JSON.parse(text)).toEqual({
      mcpServers: { mine: { command: 'a' } },
      $schema: 'x',
      policy: { defaultRule: 'deny' },
    });
  });

  it('refuses to write over a file that does not parse, naming line and column, and changes nothing', async () => {
    const halfTyped = '{\n  "mcpServers": {\n    "a": {"command": \n';
    await writeFile(path, halfTyped);
    await expect(store.updateServers((servers) => (servers['b'] = { command: 'b' }))).rejects.toMatchObject({
      code: 'config_unparsed',
      message: 'config.json has an edit that does not parse yet (line 4, column 1): fix it or undo it, then try again',
    });
    expect(await readFile(path, 'utf8')).toBe(halfTyped);
    expect(await store.backups()).toEqual([]);
    expect(await store.problem()).toContain('(line 4, column 1)');
  });

  it('refuses a change whose result does not validate, writing nothing', async () => {
    await writeFile(path, '{"mcpServers": {}}\n');
    await expect(store.updateServers((servers) => (servers['bad id!'] = { command: 'x' }))).rejects.toMatchObject({
      code: 'config_invalid',
    });
    expect(await readFile(path, 'utf8')).toBe('{"mcpServers": {}}\n');
  });

  it(`keeps the last ${KEPT_BACKUPS} files in the state dir and restores one, newest first`, async () => {
    for (let i = 0; i < KEPT_BACKUPS + 3; i++) {
      await store.updateServers((servers) => (servers[`s${i}`] = { command: 'x' }));
    }
    const backups = await store.backups();
    expect(backups).toHaveLength(KEPT_BACKUPS);
    expect(backups.map((backup) => backup.index)).toEqual(Array.from({ length: KEPT_BACKUPS }, (_, i) => i + 1));
    expect(backups[0]!.path.startsWith(join(dir.path, 'state', 'backups', 'config'))).toBe(true);
    // Backup 1 is the file before the last write.
    expect(Object.keys(JSON.parse(await readFile(backups[0]!.path, 'utf8')).mcpServers)).toHaveLength(KEPT_BACKUPS + 2);
    await store.restore(2);
    expect(Object.keys((await store.read()).config.backends)).toHaveLength(KEPT_BACKUPS + 1);
    await expect(store.restore(KEPT_BACKUPS + 1)).rejects.toThrow(/no backup 21 .*there are 20/);
  });

  it('removes temp files a killed writer left, and names an unknown top-level key', async () => {
    await writeFile(join(dir.path, '.config.json.a1b2c3d4e5f6.tmp'), '{"half');
    await writeFile(join(dir.path, 'other.tmp'), 'not ours');
    expect(await store.removeStaleTemps()).toEqual(['.config.json.a1b2c3d4e5f6.tmp']);
    expect((await readdir(dir.path)).sort()).toEqual(['other.tmp']);
    await writeFile(path, '{"mcpServers": {}, "extra": 1}\n');
    await expect(store.read()).rejects.toThrow(`${path}: extra: unknown key`);
  });
});
