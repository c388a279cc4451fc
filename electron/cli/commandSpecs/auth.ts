/**
 * What the OAuth commands (`authorize`, `auth-status`, `doctor`, `sign-out`)
 * take and say in `--help`: the one declaration the parser checks options
 * against and the help is printed from. Imports nothing heavy, so `<command>
 * --help` answers before the core loads.
 */
import type { CommandSpec } from '../command.js';
import { JSON_OUTPUT, RUNNING_INSTANCE } from '../optionHelp.js';

/** The commands, in help order. */
export const authSpecs: readonly CommandSpec[] = [
  {
    name: 'authorize',
    usage: ['authorize <id> [--no-browser] [--config FILE]'],
    text: [
      'Sign in to a remote server: prints the URL, opens the browser (unless',
      '--no-browser), waits for the redirect, stores the tokens in the keychain.',
    ],
    options: { 'no-browser': 'Only print the URL; do not open a browser.', ...RUNNING_INSTANCE },
    examples: ['authorize linear', 'authorize linear --no-browser'],
  },
  {
    name: 'auth-status',
    usage: ['auth-status [--json] [--config FILE]'],
    text: ["Each remote server's authorization state and token expiry (offline)."],
    options: { ...JSON_OUTPUT, ...RUNNING_INSTANCE },
    examples: ['auth-status', 'auth-status --json'],
  },
  {
    name: 'doctor',
    usage: ['doctor [--json] [--config FILE]'],
    text: ['Connect every server once and report what fails (never opens a browser).'],
    options: { ...JSON_OUTPUT, ...RUNNING_INSTANCE },
    examples: ['doctor', 'doctor --json --config ./switchboard.json'],
  },
  {
    name: 'sign-out',
    usage: ['sign-out <id> [--config FILE]'],
    text: ["Revoke (where the server supports it) and delete a server's tokens."],
    options: { ...RUNNING_INSTANCE },
    examples: ['sign-out linear'],
  },
];
