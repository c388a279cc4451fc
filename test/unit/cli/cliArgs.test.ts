/** Argument errors name the nearest known option or command. */
import { describe, expect, it } from 'vitest';
import { nearest, unknownCommand, unknownOption } from '../../../electron/cli/args.js';

const OPTIONS = ['config', 'host', 'port', 'json', 'no-browser', 'server'];

describe('cli argument errors', () => {
  it('suggests the nearest option for a typo, and none for something unrelated', () => {
    expect(unknownOption(['--prot', '1'], OPTIONS, ['port'])).toBe('unknown option --prot (did you mean --port?)');
    expect(unknownOption(['--jsno'], OPTIONS)).toBe('unknown option --jsno (did you mean --json?)');
    expect(unknownOption(['--no-brow'], OPTIONS)).toBe('unknown option --no-brow (did you mean --no-browser?)');
    expect(unknownOption(['--frobnicate'], OPTIONS)).toBe('unknown option --frobnicate');
    expect(unknownOption(['-x'], OPTIONS)).toBe('unknown option -x');
  });

  it('accepts known options, values that look like options, and anything after --', () => {
    expect(unknownOption(['--port', '-1', '--config=x.json', 'pos'], OPTIONS, ['port', 'config'])).toBeUndefined();
    expect(unknownOption(['--', '--whatever'], OPTIONS)).toBeUndefined();
  });

  it('suggests the nearest command', () => {
    expect(unknownCommand('serv')).toBe('unknown command "serv" (did you mean serve?)');
    expect(unknownCommand('docter')).toBe('unknown command "docter" (did you mean doctor?)');
    expect(unknownCommand('xyzzy')).toBe('unknown command "xyzzy"');
    expect(nearest('auth', ['auth-status', 'authorize'])).toBe('auth-status');
  });
});
