/**
 * Vitest global setup: one temporary folder per test run, under which every
 * test worker's XDG_CONFIG_HOME, XDG_STATE_HOME and XDG_DATA_HOME point (see
 * isolatedDirs.ts), so no test writes into the real
 * ~/.config/mcp-switchboard or ~/.local/state/mcp-switchboard. Removed when
 * the run ends.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's temporary folder for XDG directories. */
    isolatedDirsRoot: string;
  }
}

/** Creates the run's folder and hands it to the workers; returns the teardown. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = await mkdtemp(join(tmpdir(), 'sb-test-run-'));
  project.provide('isolatedDirsRoot', root);
  return () => rm(root, { recursive: true, force: true });
}
