import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

const UNIT = ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'];

/**
 * The unit test files that replace a module (vi.mock and kin). The unit project shares its module
 * graph between the files a worker runs (isolate: false), so a module another file already loaded
 * would stay the real one; these files run isolated instead (unit-isolated). Found by content, so a
 * moved or new file lands in the right project by itself.
 */
const mockingUnitFiles = (readdirSync(join(ROOT, 'test/unit'), { recursive: true }) as string[])
  .filter((path) => /\.test\.tsx?$/.test(path))
  .map((path) => join(ROOT, 'test/unit', path))
  .filter((path) => /\bvi\.(?:mock|doMock|unmock|doUnmock)\(/.test(readFileSync(path, 'utf8')))
  .map((path) => relative(ROOT, path).split('\\').join('/'));

/**
 * The unit files that render in a DOM (a `@vitest-environment` docblock), found by content like the above.
 * They are a project of their own (unit-dom): vitest reuses a worker for the next file only when that file
 * is of the same project and environment, and the unit project's files, sorted by size, alternate between
 * the two, so the tier started 37 workers (each importing React, the SDK and the core again) instead of 4.
 */
const domUnitFiles = (readdirSync(join(ROOT, 'test/unit'), { recursive: true }) as string[])
  .filter((path) => /\.test\.tsx?$/.test(path))
  .map((path) => join('test/unit', path).split('\\').join('/'))
  .filter((path) => !mockingUnitFiles.includes(path))
  .filter((path) => /@vitest-environment\s/.test(readFileSync(join(ROOT, path), 'utf8')));

/**
 * The integration files that need a process of their own. The integration project reuses one process and
 * module graph per worker for file after file (isolate: false: importing the core again for every file
 * cost CI ~150 s of its two cores; shared, ~20 s). These files cannot share: they change process.env for
 * what the core starts or probes (a keychain made unreachable, a sandbox's HOME), which a module of an
 * earlier file has already read, or they count the test process's child processes, which must then be
 * their own. Found by content, so a new file of either kind lands in integration-isolated by itself.
 */
const OWN_PROCESS =
  /process\.env(?:\[['"][A-Z_]+['"]\]|\.[A-Z_]+)\s*=[^=]|delete process\.env|descendantPids\(process\.pid\)/;
const ownProcessIntegrationFiles = (readdirSync(join(ROOT, 'test/integration'), { recursive: true }) as string[])
  .filter((path) => path.endsWith('.test.ts'))
  .map((path) => join('test/integration', path).split('\\').join('/'))
  .filter((path) => OWN_PROCESS.test(readFileSync(join(ROOT, path), 'utf8')));

/** Integration files that measure serve's memory under load (integration-memory, below). */
const MEMORY_FILES = [
  'test/integration/frontend/stalled-client.test.ts',
  'test/integration/frontend/stalled-stdio-client.test.ts',
  'test/integration/backends/flood.test.ts',
  'test/integration/install/bundle-hostile.test.ts',
];

/** The unit projects' setup file that makes starting a child process throw (no unit test starts one). */
const NO_CHILD_PROCESS = 'test/helpers/noChildProcess.ts';

export default defineConfig({
  test: {
    // XDG config, state and data directories in a temporary folder per run: no test writes into the real ones.
    // Every project inherits them (extends: true).
    globalSetup: ['test/helpers/isolatedDirs.global.ts'],
    setupFiles: ['test/helpers/isolatedDirs.ts'],
    reporters: ['default'],
    // Two cores here. Every project has the same maxWorkers, so a run of several projects shares one pool.
    // A third worker was tried: CI's test run took 708 s instead of 720 s, its tests 1531 s of time instead
    // of 1109 s (the cores, not the waits, are the limit), so two it stays.
    maxWorkers: 2,
    projects: [
      {
        // The core, the CLI's and the renderer's logic in process: no build, no child processes, seconds.
        // Threads in one shared module graph per worker (no re-import of React, jsdom or the SDK per file):
        // the tests restore what they change (timers, spies: vitest restores mocks between files).
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          setupFiles: [NO_CHILD_PROCESS],
          exclude: [...mockingUnitFiles, ...domUnitFiles],
          pool: 'threads',
          isolate: false,
          testTimeout: 10_000,
          hookTimeout: 10_000,
        },
      },
      {
        // The renderer's tests in a DOM, sharing workers as the unit project (domUnitFiles, above).
        extends: true,
        test: {
          name: 'unit-dom',
          include: domUnitFiles.length > 0 ? domUnitFiles : ['no-unit-file-renders-in-a-dom'],
          setupFiles: [NO_CHILD_PROCESS],
          pool: 'threads',
          isolate: false,
          testTimeout: 10_000,
          hookTimeout: 10_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'unit-isolated',
          include: mockingUnitFiles.length > 0 ? mockingUnitFiles : ['no-unit-file-mocks-a-module'],
          setupFiles: [NO_CHILD_PROCESS],
          pool: 'threads',
          testTimeout: 10_000,
          hookTimeout: 10_000,
        },
      },
      {
        // The core against real MCP servers, our fixtures and the CLI (bin/, which needs dist/cli).
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          exclude: [...MEMORY_FILES, ...ownProcessIntegrationFiles],
          pool: 'forks',
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The integration files that need a fresh process each (ownProcessIntegrationFiles, above).
        extends: true,
        test: {
          name: 'integration-isolated',
          include: ownProcessIntegrationFiles.filter((path) => !MEMORY_FILES.includes(path)),
          pool: 'forks',
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The files that bound serve's memory (RSS) under a flood: run after every other file, one at a
        // time, so the peak they measure is the flood's and not the garbage of tests beside them (a
        // bound met by 20-30 MB on a quiet machine was missed by 7 MB on a busy one).
        extends: true,
        test: {
          name: 'integration-memory',
          include: MEMORY_FILES,
          pool: 'forks',
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The UI in Chromium, served by the built `serve`: the only tier that needs the whole build. One process
        // and module graph per worker, as the integration project (each file starts its own serve and browser;
        // none changes process.env): re-importing the harness and playwright-core cost ~6 s a file.
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          pool: 'forks',
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
