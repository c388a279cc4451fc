/**
 * The renderer build runs under a strict CSP (`default-src 'self'; style-src
 * 'self'`): no inline scripts or styles, no eval, relative asset URLs. Checked
 * on the build the host serves (dist/renderer, made by `npm test` before the
 * integration tier; a unit test once made a build of its own, seconds of CPU).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/harness.js';

describe('renderer build', () => {
  const outDir = join(ROOT, 'dist/renderer');

  it('emits an index.html with only external, relative scripts and styles', async () => {
    const html = await readFile(join(outDir, 'index.html'), 'utf8');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style/);
    expect(html).not.toMatch(/\sstyle=/);
    expect(html).toMatch(/<script type="module" crossorigin src="\.\/assets\/[^"]+\.js"><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" crossorigin href="\.\/assets\/[^"]+\.css">/);
  });

  it('carries its own CSP as a <meta> (the Electron window loads it from file://, where no header can)', async () => {
    const html = await readFile(join(outDir, 'index.html'), 'utf8');
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html);
    expect(meta).not.toBeNull();
    const directives = new Map(
      meta![1]!.split(';').map((part) => {
        const [name, ...values] = part.trim().split(/\s+/);
        return [name!, values.join(' ')] as const;
      }),
    );
    expect(directives.get('default-src')).toBe("'self'");
    expect(directives.get('script-src')).toBe("'self'");
    expect(directives.get('style-src')).toBe("'self'");
    expect(directives.get('connect-src')).toBe("'self' ws://127.0.0.1:* ws://localhost:*");
    // Image and audio results are shown from data: URLs.
    expect(directives.get('img-src')).toBe("'self' data: blob:");
    expect(directives.get('media-src')).toBe("'self' data: blob:");
    expect(directives.get('object-src')).toBe("'none'");
    expect(directives.get('base-uri')).toBe("'none'");
    expect(directives.get('form-action')).toBe("'none'");
    expect(meta![1]).not.toMatch(/unsafe-inline|unsafe-eval/);
    // Ignored (with a console error) when delivered in a <meta>: only the bridge's header sets it.
    expect(directives.has('frame-ancestors')).toBe(false);
    // It comes before any script or stylesheet, so it governs them.
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.search(/<script|<link rel="stylesheet"/));
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
