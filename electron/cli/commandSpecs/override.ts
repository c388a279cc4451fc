/**
 * What `override` takes and says in `--help`: the one declaration the parser
 * checks options against and the help is printed from. Imports nothing heavy,
 * so `<command> --help` answers before the core loads.
 */
import type { CommandSpec } from '../command.js';
import { RUNNING_INSTANCE } from '../optionHelp.js';

/** The command, in help order. */
export const overrideSpecs: readonly CommandSpec[] = [
  {
    name: 'override',
    usage: [
      'override <server> <tool|prompt|uri> [--prompt|--resource] [--name N] [--title T] [--description D]',
      '  [--read-only|--no-read-only ...] [--fix ARG=JSON ...] [--default ARG=JSON ...] [--unset ARG ...]',
      '  [--clear] [--profile CLIENT] [--config FILE]',
    ],
    text: [
      'Show or change what the model sees of a server tool (its original name): its name, title,',
      'description, annotations and arguments, fixed (hidden, forced) or defaulted; or offer a prompt or',
      'resource as a tool. For one client profile with --profile. Without changes: shows the override.',
    ],
    options: {
      prompt: 'The item is a prompt, offered as a tool (promptsAsTools).',
      resource: 'The item is a resource URI, offered as a tool (resourcesAsTools).',
      name: 'The name the model sees (before the server prefix; sanitised like every name).',
      title: 'The title the model sees.',
      description: 'The description the model sees.',
      'read-only': 'Annotate it readOnlyHint: true.',
      'no-read-only': 'Annotate it readOnlyHint: false.',
      destructive: 'Annotate it destructiveHint: true.',
      'no-destructive': 'Annotate it destructiveHint: false.',
      idempotent: 'Annotate it idempotentHint: true.',
      'no-idempotent': 'Annotate it idempotentHint: false.',
      'open-world': 'Annotate it openWorldHint: true.',
      'no-open-world': 'Annotate it openWorldHint: false.',
      fix: 'Fix an argument to a JSON value, hidden from the model; a client setting it is refused.',
      default: 'Give an argument a JSON default, filled in when the client leaves it out.',
      unset: 'Drop what the override says of an argument.',
      clear: 'Remove the whole override of the item (at the --profile level when given).',
      profile: "The client profile whose override this is (laid over the server's).",
      ...RUNNING_INSTANCE,
    },
    examples: [
      'override fs read_file --name read_note --description "Reads today\'s note" --read-only',
      'override fs read_file --fix path=\'"/notes/today.md"\' --default encoding=\'"utf8"\'',
      'override fs read_file --description "Reads a note" --profile cursor',
      'override fs summarize --prompt --name summarize_notes',
      'override fs read_file --clear',
    ],
  },
];
