/**
 * The renderer build runs under a strict CSP (`default-src 'self'; style-src
 * 'self'`): no inline scripts or styles, no eval, relative asset URLs.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'vite';
import { ROOT } from '../../helpers/harness.js';

describe('renderer build', () => {
  let outDir: string;
  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'sb-renderer-'));
    await build({
      configFile: join(ROOT, 'build/vite.renderer.config.ts'),
      logLevel: 'silent',
      build: { outDir, emptyOutDir: true, sourcemap: false },
    });
  }, 120_000);
  afterAll(() => rm(outDir, { recursive: true, force: true }));

  it('emits an index.html with only external, relative scripts and styles', async () => {
    const html = await readFile(join(outDir, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style/);
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).toMatch(/<script type="module" crossorigin src="\.\/assets\/[^"]+\.js"><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" crossorigin href="\.\/assets\/[^"]+\.css">/);
  });

  it('ships no code that needs unsafe-eval or injects style tags', async () => {
    const assets = await readdir(join(outDir, 'assets'));
    const js = assets.filter((name) => name.endsWith('.js'));
    expect(js.length).toBeGreaterThan(0);
    for (const name of js) {
      const code = await readFile(join(outDir, 'assets', name), 'utf8');
      expect(code).not.toMatch(/new Function\(|\beval\(/);
      expect(code).not.toMatch(/createElement\(["']style["']\)/);
    }
  });
});
