/**
 * Vite build of the Electron preload: electron/preload.ts into
 * dist/desktop/preload.cjs. A sandboxed preload must be one CommonJS file
 * that requires nothing but `electron`, so the contract's method names and
 * the preload body (electron/host/preloadApi.ts) are bundled in.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: 'dist/desktop',
    emptyOutDir: false,
    target: 'node20',
    sourcemap: true,
    minify: false,
    lib: { entry: 'electron/preload.ts', formats: ['cjs'], fileName: () => 'preload.cjs' },
    rollupOptions: { external: ['electron'] },
  },
});
