/**
 * The unit projects' rule that no unit test starts a child process
 * (test/helpers/noChildProcess.ts): every way node:child_process starts one
 * throws an error naming the rule, through a named import, the module object
 * and require alike, and nothing starts.
 */
import * as childProcess from 'node:child_process';
import { execFileSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { STARTERS } from '../../helpers/noChildProcess.js';

const require = createRequire(import.meta.url);
const RULE = /a unit test started a child process \(\w+ \/bin\/true\): unit tests start none; .*test\/integration/;

describe('a unit test that starts a child process', () => {
  it('fails with the rule, through a named import', () => {
    expect(() => spawn('/bin/true')).toThrow(RULE);
    expect(() => execFileSync('/bin/true')).toThrow(RULE);
  });

  it('fails the same through the module object and require, for every starter', () => {
    const required = require('node:child_process') as Record<string, (command: string) => unknown>;
    const imported = childProcess as unknown as Record<string, (command: string) => unknown>;
    for (const starter of STARTERS) {
      expect(() => imported[starter]?.('/bin/true')).toThrow(RULE);
      expect(() => required[starter]?.('/bin/true')).toThrow(RULE);
    }
  });
});
