/**
 * Vite build of dist/cli/help.js, which bin/ asks first: `<command> --help` and
 * `help <command>` answered from the commands' declarations alone, without
 * loading the core. Each declaration is exported by its command's module
 * (electron/cli/commands/<name>.ts), whose handler imports the core; this build
 * is apart from vite.cli.config.ts (which empties dist/cli, so it runs second) and
 * assumes no module is imported for its side effects alone, so the handlers and
 * everything they import are left out. test/integration/cli/cli-help.test.ts
 * holds that the result imports nothing but Node's built-ins.
 */
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: true,
    outDir: 'dist/cli',
    emptyOutDir: false,
    target: 'node20',
    sourcemap: true,
    minify: false,
    rollupOptions: {
      input: { help: 'electron/cli/helpRequest.ts' },
      external: (id) => id.startsWith('node:') || builtinModules.includes(id),
      // None of our modules is imported for its side effects alone (no `import './x.js'`),
      // so one whose exports the help does not use is left out, with all it imports.
      treeshake: { moduleSideEffects: false },
      output: { format: 'es', entryFileNames: '[name].js' },
    },
  },
});
