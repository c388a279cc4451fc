/**
 * What `profile` takes and says in `--help`: the one declaration the parser
 * checks options against and the help is printed from. Imports nothing heavy,
 * so `<command> --help` answers before the core loads.
 */
import type { CommandSpec } from '../command.js';
import { RUNNING_INSTANCE } from '../optionHelp.js';

/** The command, in help order. */
export const profileSpecs: readonly CommandSpec[] = [
  {
    name: 'profile',
    usage: [
      'profile [list]',
      'profile export <profile> [--servers] [--out FILE]',
      'profile import FILE [--as NEWID] [--replace] [--yes]',
    ],
    text: [
      'Client profiles as files (docs/profiles.md): export writes one with the policies of its servers',
      '(and the servers, with --servers), every secret a named input; import shows what would change,',
      'asks for each secret (or reads SWITCHBOARD_INPUT_<NAME>, or NAME=value lines on stdin) and',
      'saves the secrets to the OS keychain and the rest in one write of the config.',
    ],
    options: {
      servers: 'Export: also write the servers the profile uses (secrets as inputs).',
      out: 'Export: write the file here instead of printing it.',
      as: 'Import: under this profile ID instead of the one in the file.',
      replace: 'Import: replace a profile of the same ID.',
      yes: 'Import: do not ask before writing (needed when stdin is not a terminal).',
      ...RUNNING_INSTANCE,
    },
    examples: [
      'profile',
      'profile export cursor --servers --out cursor.profile.json',
      'profile import cursor.profile.json --as cursor-work',
      'profile import team.profile.json --yes < secrets.txt',
    ],
  },
];
