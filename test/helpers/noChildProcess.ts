/**
 * Vitest setup file of the unit projects: a unit test starts no child process
 * (docs/development.md, test tiers: our own logic in one process, in seconds).
 * Every way node:child_process starts one throws instead, naming the rule and
 * the command, whether the test calls it or a library under it does; a test
 * that needs a process (a redis-server, a shell, a build whose bundler runs a
 * service) belongs in test/integration/<wing>/. Named ESM imports of the module
 * see the change too (syncBuiltinESMExports).
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

/** The functions of node:child_process that start a process. */
export const STARTERS = ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync'] as const;

/** The error each of them throws in a unit test. */
export class ChildProcessInUnitTest extends Error {
  constructor(starter: string, command: unknown) {
    super(
      `a unit test started a child process (${starter} ${String(command)}): unit tests start none; ` +
        'a test that needs one belongs in test/integration/<wing>/ (docs/development.md, test tiers)',
    );
    this.name = 'ChildProcessInUnitTest';
  }
}

const starters = childProcess as unknown as Record<string, unknown>;
for (const starter of STARTERS) {
  starters[starter] = (command: unknown) => {
    throw new ChildProcessInUnitTest(starter, command);
  };
}
syncBuiltinESMExports();
