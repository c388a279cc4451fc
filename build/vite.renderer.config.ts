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
import { defineConfig } from 'vite';

const rendererRoot = fileURLToPath(new URL('../renderer', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/renderer', import.meta.url));

export default defineConfig({
  root: rendererRoot,
  base: './',
  plugins: [react()],
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
