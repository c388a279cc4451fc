/**
 * Vite build of the renderer (React UI) into dist/renderer/, served by the
 * Electron window and by `mcp-switchboard serve` at `/`.
 *
 * The page runs under a strict CSP (`default-src 'self'; style-src 'self'`):
 * no inline scripts or styles are emitted (the module-preload polyfill is off,
 * CSS goes to its own file), and `base: './'` keeps asset URLs relative so the
 * same build loads from file:// (Electron) and from http://127.0.0.1 (headless).
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const rendererRoot = fileURLToPath(new URL('../renderer', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/renderer', import.meta.url));

/**
 * index.html carries the page's CSP as a <meta> (the Electron window loads it
 * from file://, where no header can carry one). Vite's dev server injects an
 * inline script (React refresh) that policy forbids, so it is left out there.
 */
const cspInBuildsOnly: Plugin = {
  name: 'switchboard:csp-in-builds-only',
  apply: 'serve',
  transformIndexHtml: (html) => html.replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/i, ''),
};

export default defineConfig({
  root: rendererRoot,
  base: './',
  plugins: [react(), cspInBuildsOnly],
  build: {
    outDir,
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    cssCodeSplit: false,
    sourcemap: true,
    target: 'es2022',
  },
});
