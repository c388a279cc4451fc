/**
 * What every command shares with the process it runs in: its output streams,
 * stdin, the argument-error exit, and how client entries launch this command.
 */
import { realpathSync } from 'node:fs';
import type { Launcher } from '../core/install/index.js';
import { ErrorFix, fixOf, type ErrorData } from '../../shared/errors.js';

/** Writes text somewhere (stdout, stderr, or a redaction in front of one). */
export type Write = (text: string) => void;

/** Output of a command that prints for people. */
export function stdio(): { out: Write; err: Write } {
  return { out: (text) => void process.stdout.write(text), err: (text) => void process.stderr.write(text) };
}

/** An argument error: one line on stderr and exit code 2. */
export function fail(message: string): never {
  process.stderr.write(`mcp-switchboard: ${message}\n`);
  process.exit(2);
}

/** All of stdin (a prompt first when it is a terminal). */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) process.stderr.write('Value (end with Ctrl-D): ');
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

/**
 * How client configs and `connect` launch this command: absolute node and
 * absolute script (through any npm bin symlink), so a client with a minimal
 * PATH still starts it.
 */
export function selfLauncher(): Launcher {
  const script = process.argv[1];
  return { command: process.execPath, args: script ? [realpathSync(script)] : [] };
}

/** Asks on the terminal and reads one line without echoing it (a secret). */
export async function askHidden(question: string): Promise<string> {
  const { createInterface } = await import('node:readline');
  const { Writable } = await import('node:stream');
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk as Buffer);
      done();
    },
  });
  const reader = createInterface({ input: process.stdin, output, terminal: true });
  try {
    process.stderr.write(question);
    muted = true;
    return await new Promise<string>((resolve) => reader.question('', resolve));
  } finally {
    muted = false;
    process.stderr.write('\n');
    reader.close();
  }
}

/** Asks a yes/no question on the terminal; only `y` or `yes` is yes. */
export async function confirm(question: string): Promise<boolean> {
  const { createInterface } = await import('node:readline/promises');
  const reader = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await reader.question(question)).trim());
  } finally {
    reader.close();
  }
}

/**
 * An error's message as the CLI says it: with the flag that fixes it, when
 * the error carries its fix as data (the UI names its own control instead).
 */
export function errorLine(error: ErrorData): string {
  switch (fixOf(error)) {
    case ErrorFix.ReplaceOrRename:
      return `${error.message}: import it with --replace, or under another ID with --as NEWID`;
    case ErrorFix.RunUnsandboxed:
      return `${error.message}; to add it unsandboxed, pass --unsandboxed`;
    case ErrorFix.GiveValue: {
      const key = String(error.data?.['key'] ?? '').replace(/^(var|arg):/, '');
      return `${error.message}: pass --arg ${key}=...`;
    }
    default:
      return error.message;
  }
}
