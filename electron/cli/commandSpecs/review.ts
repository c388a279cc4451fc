/**
 * What `review`, `approve` and `scan` take and say in `--help`: the one
 * declaration the parser checks options against and the help is printed from.
 * Imports nothing heavy, so `<command> --help` answers before the core loads.
 */
import type { CommandSpec } from '../command.js';
import { JSON_OUTPUT } from '../optionHelp.js';

/** The commands, in help order. */
export const reviewSpecs: readonly CommandSpec[] = [
  {
    name: 'review',
    usage: ['review <id> [--json]'],
    text: [
      "A server's review: its command, arguments and sandbox, each tool with the scan's findings,",
      'and the changed definitions held for approval, as a unified diff.',
    ],
    options: { ...JSON_OUTPUT },
    examples: ['review github', 'review github --json'],
  },
  {
    name: 'approve',
    usage: ['approve <id> [--tool NAME]'],
    text: ['Approve a quarantined server (its items are served at once), or one held tool change.'],
    options: { tool: "Approve only this tool's held change, not the whole server." },
    examples: ['approve github', 'approve github --tool create_issue'],
  },
  {
    name: 'scan',
    usage: ['scan [id] [--json]'],
    text: ["The poisoning scan's findings; exit 1 when one is high-severity, 3 when none could be asked."],
    options: { ...JSON_OUTPUT },
    examples: ['scan', 'scan github --json'],
  },
];
