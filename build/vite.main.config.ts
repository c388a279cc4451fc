/**
 * Vite build of the Electron main process: electron/main.ts (and the core it
 * starts) into dist/desktop/main.js, an ES module (package.json "type":
 * "module"; Electron >= 28 loads ESM mains). Node built-ins, electron and
 * every dependency stay external (node_modules ships with the app), so the
 * build never needs the Electron binary.
 */
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import pkg from '../package.json' with { type: 'json' };

const root = fileURLToPath(new URL('..', import.meta.url));
const dependencies = [
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.optionalDependencies ?? {}),
  'electron',
];

export default defineConfig({
  root,
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: true,
    outDir: 'dist/desktop',
    emptyOutDir: false,
    target: 'node20',
    sourcemap: true,
    minify: false,
    rollupOptions: {
      // Code mode's worker thread is an entry of its own: a file beside main.js a Worker can start.
      input: { main: 'electron/main.ts', sandboxWorker: 'electron/core/frontend/exposure/code/sandboxWorker.ts' },
      external: (id) =>
        id.startsWith('node:') ||
        builtinModules.includes(id) ||
        dependencies.some((name) => id === name || id.startsWith(`${name}/`)),
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
});
