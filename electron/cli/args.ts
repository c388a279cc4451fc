/**
 * What the command says about arguments it cannot use: an unknown option or
 * command names the nearest known one ("unknown option --prot (did you mean
 * --port?)") followed by one short usage line, instead of Node's parser
 * message and the whole help.
 */
import { COMMAND_NAMES } from './specTable.js';

/** The one usage line printed with an argument error. */
export const SHORT_USAGE =
  'usage: mcp-switchboard <serve|connect|check-config|...> [options]; mcp-switchboard --help lists every command and option';

/** Edit distance (insertions, deletions, substitutions, adjacent swaps). */
function distance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i]!;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
      }
    }
  }
  return rows[a.length]![b.length]!;
}

/** The known word nearest to `word`, when it is near enough to be a typo (or `word` is its prefix). */
export function nearest(word: string, known: readonly string[]): string | undefined {
  let best: { candidate: string; score: number } | undefined;
  for (const candidate of known) {
    const score = candidate.startsWith(word) && word.length >= 2 ? 0.5 : distance(word, candidate);
    if (!best || score < best.score) best = { candidate, score };
  }
  const limit = Math.max(1, Math.floor(word.length / 3));
  return best && best.score <= limit ? best.candidate : undefined;
}

const suggestion = (hint: string | undefined, prefix = ''): string => (hint ? ` (did you mean ${prefix}${hint}?)` : '');

/**
 * The first option in `args` (before a lone `--`) that is not in `known`
 * (long names without dashes), said with a suggestion; undefined when every
 * option is known. The argument after an option in `valued` is its value.
 */
export function unknownOption(
  args: readonly string[],
  known: readonly string[],
  valued: readonly string[] = [],
): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    if (arg === '--') return undefined;
    if (arg.startsWith('--') && !arg.includes('=') && valued.includes(arg.slice(2))) {
      index++; // its value, whatever it looks like
      continue;
    }
    if (arg.startsWith('--')) {
      const name = arg.slice(2).split('=')[0] ?? '';
      if (!known.includes(name)) return `unknown option --${name}${suggestion(nearest(name, known), '--')}`;
    } else if (arg.startsWith('-') && arg.length > 1) {
      return `unknown option ${arg}${suggestion(nearest(arg.slice(1), known), '--')}`;
    }
  }
  return undefined;
}

/** An unknown command, said with the nearest of the `known` ones (default: every command in the table). */
export function unknownCommand(command: string, known: readonly string[] = COMMAND_NAMES): string {
  return `unknown command "${command}"${suggestion(nearest(command, known))}`;
}

/**
 * The first option in `args` that the command `command` does not take: one
 * the parser knows but this command does not is said as such, any other
 * with the nearest option the command takes.
 */
export function optionNotTaken(
  command: string,
  args: readonly string[],
  takes: readonly string[],
  known: readonly string[],
  valued: readonly string[],
): string | undefined {
  // Only its own options' values are skipped: any other option is the error, whatever follows it.
  const problem = unknownOption(
    args,
    takes,
    valued.filter((name) => takes.includes(name)),
  );
  if (!problem) return undefined;
  const name = /^unknown option (-{1,2}[^\s]+)/.exec(problem)?.[1] ?? '';
  return known.includes(name.replace(/^--/, '')) ? `${command} does not take ${name}` : problem;
}
