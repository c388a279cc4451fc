import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // XDG config, state and data directories in a temporary folder per run: no test writes into the real ones.
    globalSetup: ['test/helpers/isolatedDirs.global.ts'],
    setupFiles: ['test/helpers/isolatedDirs.ts'],
    // Integration tests start real servers and child processes; two cores here.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
