import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackendEras, launchKey } from '../../../../../electron/core/backends/connection/backendEras.js';
import type { BackendConfig } from '../../../../../electron/core/platform/config/schema.js';
import { makeConfig } from '../../../../helpers/basics.js';

function backend(entry: Record<string, unknown>): BackendConfig {
  return makeConfig({ mcpServers: { srv: entry } }).backends[0]!;
}

describe('BackendEras', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'eras-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('keeps verdicts across instances', async () => {
    const path = join(dir, 'backend-eras.json');
    const eras = new BackendEras(path);
    eras.remember('a', { kind: 'legacy', probe: 'ignored' });
    eras.remember('b', { kind: 'legacy', probe: 'exited' });
    await eras.flushed();
    const again = new BackendEras(path);
    expect([again.recall('a'), again.recall('b'), again.recall('c')]).toEqual([
      { kind: 'legacy', probe: 'ignored' },
      { kind: 'legacy', probe: 'exited' },
      undefined,
    ]);
  });

  it('reads a damaged file as no verdicts (each server is probed again)', async () => {
    const path = join(dir, 'backend-eras.json');
    await writeFile(path, '{"version":1,"eras":{"b":{"kind":"legacy","probe":"exited"}');
    expect(new BackendEras(path).recall('b')).toBeUndefined();
    await writeFile(
      path,
      JSON.stringify({ version: 1, eras: { a: { kind: 'modern' }, b: { kind: 'legacy', probe: 'exited' } } }),
    );
    expect(new BackendEras(path).recall('a')).toBeUndefined();
    expect(new BackendEras(path).recall('b')).toEqual({ kind: 'legacy', probe: 'exited' });
  });

  it('keys a stdio server by its launch line, never by its env (values may be secrets)', async () => {
    const base = { command: 'node', args: ['server.js'] };
    const key = launchKey(backend(base));
    expect(key).toBeDefined();
    expect(launchKey(backend({ ...base, env: { TOKEN: 'sekret-value' } }))).toBe(key);
    expect(launchKey(backend({ ...base, args: ['other.js'] }))).not.toBe(key);
    expect(launchKey(backend({ url: 'http://127.0.0.1:1/mcp' }))).toBeUndefined();
    const path = join(dir, 'backend-eras.json');
    const eras = new BackendEras(path);
    eras.remember(key!, { kind: 'legacy', probe: 'ignored' });
    await eras.flushed();
    expect(await readFile(path, 'utf8')).not.toContain('sekret');
  });
});
