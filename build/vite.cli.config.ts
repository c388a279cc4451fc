/**
 * Vite build of the `mcp-switchboard` command: electron/cli/main.ts (and the
 * core it runs) into one ES module, dist/cli/main.js, which bin/ loads. One
 * file instead of some 250 saves Node a quarter of the time it takes to load
 * the command (resolving, reading and linking each module), on every `serve`
 * and every other command. The login shell module is an entry of its own, so
 * bin/ can start the shell before loading the rest and the command then finds
 * that same module instance; code mode's worker thread is one too, a file a
 * Worker can start. The help bin/ answers first (`<command> --help`)
 * is a build of its own (vite.help.config.ts): each command's declaration sits in
 * that command's module, beside the handler and the core it imports, and only a
 * separate, tree-shaken build can keep the one without the other. Node built-ins
 * and every dependency stay external (node_modules ships with the package), as in
 * vite.main.config.ts.
 */
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import pkg from '../package.json' with { type: 'json' };

const root = fileURLToPath(new URL('..', import.meta.url));
const dependencies = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})];

export default defineConfig({
  root,
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: true,
    outDir: 'dist/cli',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    minify: false,
    rollupOptions: {
      input: {
        main: 'electron/cli/main.ts',
        loginShell: 'electron/core/platform/env/loginShell.ts',
        // Code mode's worker thread, found beside the bundle by sandboxPool.ts.
        sandboxWorker: 'electron/core/frontend/exposure/code/sandboxWorker.ts',
      },
      external: (id) =>
        id.startsWith('node:') ||
        builtinModules.includes(id) ||
        dependencies.some((name) => id === name || id.startsWith(`${name}/`)),
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
});
