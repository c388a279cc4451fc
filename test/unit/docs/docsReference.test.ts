/**
 * The manual (README.md and docs/*.md) stays true to the code it describes:
 * - every `mcp-switchboard <command>` written in a code span or a fenced block
 *   is a command of the CLI's table, and every option written after it is one
 *   that command declares (the parser takes exactly those, and --help);
 *   docs/cli.md lists every option the parser knows;
 * - the config reference (docs/config.md) documents exactly the `proxy` options
 *   of the config schema, with their defaults, every `proxy.<key>` named
 *   anywhere exists, and the config examples of every page validate;
 * - relative links point at files that exist and anchors at headings, and
 *   every `npm run <script>` is a script of package.json.
 * Reads files only: no build, no processes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nearest, unknownOption } from '../../../electron/cli/args.js';
import { OPTIONS } from '../../../electron/cli/command.js';
import { COMMAND_TABLE, findCommand } from '../../../electron/cli/commandTable.js';
import { COMMAND_NAMES } from '../../../electron/cli/specTable.js';
import { readProfileFile } from '../../../electron/core/install/index.js';
import { ConfigFileSchema, parseConfig, ProxyOptionsSchema } from '../../../electron/core/platform/index.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const DOCS = join(ROOT, 'docs');
const PAGES = [
  join(ROOT, 'README.md'),
  ...readdirSync(DOCS)
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(DOCS, name)),
];
const read = (path: string): string => readFileSync(path, 'utf8');
const where = (path: string, line: number): string => `${relative(ROOT, path)}:${line}`;

/** What main.ts answers as the first argument, before any command (`help <command>` included). */
const FIRST_ARGUMENT = ['--help', '-h', '--version', '-v', 'help'];
/** What every command takes: its help. */
const HELP = ['help'];
const PARSER_OPTIONS = [...Object.keys(OPTIONS), ...HELP];

interface Fence {
  /** The info string after the opening backticks (`sh`, `json`, ...). */
  info: string;
  /** Line number (1-based) of the block's first line of content. */
  line: number;
  body: string;
}

/** A page cut into its fenced blocks and the prose between them (fenced lines blanked, so line numbers hold). */
function splitPage(text: string): { fences: Fence[]; prose: string } {
  const fences: Fence[] = [];
  const prose: string[] = [];
  let open: { marker: string; fence: Fence; lines: string[] } | undefined;
  text.split('\n').forEach((line, index) => {
    const marker = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    if (open) {
      if (marker && marker[1]!.startsWith(open.marker) && marker[2]!.trim() === '') {
        fences.push({ ...open.fence, body: open.lines.join('\n') });
        open = undefined;
      } else open.lines.push(line);
      prose.push('');
    } else if (marker) {
      open = { marker: marker[1]!, fence: { info: marker[2]!.trim(), line: index + 2, body: '' }, lines: [] };
      prose.push('');
    } else prose.push(line);
  });
  return { fences, prose: prose.join('\n') };
}

/** Inline code spans of the prose (a span may run over a line break), with the line each starts on. */
function codeSpans(prose: string): { text: string; line: number }[] {
  const spans: { text: string; line: number }[] = [];
  for (const match of prose.matchAll(/(`+)([\s\S]*?[^`])\1(?!`)/g)) {
    const line = prose.slice(0, match.index).split('\n').length;
    spans.push({ text: match[2]!.replace(/\s+/g, ' ').trim(), line });
  }
  return spans;
}

/** Splits a usage text on `|` outside `[...]` and `<...>` (`outdated [--json] | update <id>`). */
function topLevelSegments(text: string): string[] {
  const segments: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of text) {
    if (char === '[' || char === '<') depth++;
    if (char === ']' || char === '>') depth = Math.max(0, depth - 1);
    if (char === '|' && depth === 0) {
      segments.push(current);
      current = '';
    } else current += char;
  }
  return [...segments, current];
}

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);
const optionNames = (text: string): string[] =>
  [...text.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((match) => match[1]!);

/** The options each command declares (the parser takes exactly these), by command name. */
function declaredOptions(): Map<string, Set<string>> {
  const declared = new Map<string, Set<string>>();
  for (const command of COMMAND_TABLE) {
    for (const spec of command.commands) declared.set(spec.name, new Set([...Object.keys(spec.options), ...HELP]));
  }
  return declared;
}

/** One `mcp-switchboard ...` written in the docs: the command (or a first-argument option) and what follows it. */
interface Mention {
  at: string;
  command: string;
  rest: string;
}

/** Every `mcp-switchboard <word>` of a piece of code, split per command (`secret set X | secret list` is two). */
function mentionsIn(code: string, at: string): Mention[] {
  const mentions: Mention[] = [];
  // `mcp-switchboard` as a word of its own: not a path (`~/.config/mcp-switchboard/...`).
  const starts = [...code.matchAll(/(?<![\w./\\$-])mcp-switchboard(?=\s)/g)].map((match) => match.index);
  starts.forEach((start, index) => {
    const text = code.slice(start + 'mcp-switchboard'.length, starts[index + 1] ?? code.length);
    let current: Mention | undefined;
    for (const segment of topLevelSegments(text)) {
      const first = words(segment)[0] ?? '';
      const rest = segment.slice(segment.indexOf(first) + first.length);
      if (!current || findCommand(first) || (FIRST_ARGUMENT.includes(current.command) && first.startsWith('-'))) {
        // A placeholder (`<command>`) or a word that is not one (`mcp-switchboard command:`) names nothing.
        if (!current && !/^(-{1,2}[a-z][a-z-]*|[a-z][a-z0-9-]*)$/.test(first)) return;
        current = { at, command: first, rest };
        mentions.push(current);
      } else current.rest += ` | ${segment}`;
    }
  });
  return mentions;
}

/** Every `mcp-switchboard ...` of the manual, from code spans and fenced blocks. */
function allMentions(): Mention[] {
  const mentions: Mention[] = [];
  for (const path of PAGES) {
    const { fences, prose } = splitPage(read(path));
    for (const span of codeSpans(prose)) mentions.push(...mentionsIn(span.text, where(path, span.line)));
    for (const fence of fences) {
      fence.body.split('\n').forEach((line, index) => {
        // A shell comment is prose (`# or claude-desktop, claude-code, ...`).
        const code = /^(sh|bash|shell|console)?$/.test(fence.info) ? line.replace(/(^|\s)#.*$/, '') : line;
        mentions.push(...mentionsIn(code, where(path, fence.line + index)));
      });
    }
  }
  return mentions;
}

/** The JSON value of `text`, or undefined when it does not parse. */
function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(path: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of splitPage(read(path)).prose.split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The section of `text` under the heading matching `title`, up to the next heading of that level or higher. */
function section(text: string, title: RegExp): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => /^#{1,6}\s/.test(line) && title.test(line));
  if (start < 0) return '';
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex((line, index) => index > start && new RegExp(`^#{1,${level}}\\s`).test(line));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The rows of the markdown tables in `text`, as cells (header and separator rows left out). */
function tableRows(text: string): string[][] {
  const rows: string[][] = [];
  let inTable = false;
  for (const line of text.split('\n')) {
    if (!line.trim().startsWith('|')) {
      inTable = false;
      continue;
    }
    const cells = line
      .trim()
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
    if (!inTable)
      inTable = true; // the header row
    else if (!cells.every((cell) => /^:?-+:?$/.test(cell))) rows.push(cells);
  }
  return rows;
}

describe('the manual names only commands and options the CLI has', () => {
  const mentions = allMentions();
  const declared = declaredOptions();

  it('finds the commands the pages write', () => {
    // The extraction itself works: the usage block of docs/cli.md alone names every command.
    const named = new Set(mentions.map((mention) => mention.command));
    for (const name of COMMAND_NAMES) expect(named).toContain(name);
  });

  it('names only commands of the command table', () => {
    const unknown = mentions
      .filter((mention) => !FIRST_ARGUMENT.includes(mention.command) && !findCommand(mention.command))
      .map((mention) => `${mention.at}: mcp-switchboard ${mention.command}`);
    expect(unknown).toEqual([]);
  });

  it('writes after each command only options it takes', () => {
    const problems: string[] = [];
    for (const mention of mentions) {
      if (FIRST_ARGUMENT.includes(mention.command)) continue;
      const takes = [...(declared.get(mention.command) ?? [])];
      const options = optionNames(mention.rest).map((name) => `--${name}`);
      // The parser's own check first (an option it does not know fails every command), then the command's.
      const problem =
        unknownOption(options, PARSER_OPTIONS) ??
        unknownOption(options, takes)?.replace('unknown option', `${mention.command} does not take`);
      if (problem) problems.push(`${mention.at}: mcp-switchboard ${mention.command}: ${problem}`);
    }
    expect(problems).toEqual([]);
  });

  it('declares in --help only options the parser knows', () => {
    for (const [command, options] of declared) {
      for (const option of options) expect(PARSER_OPTIONS, `${command} --${option}`).toContain(option);
    }
  });

  it('lists every option of the parser in docs/cli.md', () => {
    const cli = read(join(DOCS, 'cli.md'));
    const missing = PARSER_OPTIONS.filter((option) => !cli.includes(`--${option}`));
    expect(missing).toEqual([]);
  });
});

describe('the config reference documents exactly the proxy options of the schema', () => {
  const configPage = read(join(DOCS, 'config.md'));
  const schemaKeys = Object.keys(ProxyOptionsSchema.unwrap().shape).sort();
  const defaults: Record<string, unknown> = ProxyOptionsSchema.parse({});
  const rows = tableRows(section(configPage, /proxy options/i))
    .map((cells) => ({ key: /^`([^`]+)`$/.exec(cells[0] ?? '')?.[1], defaultCell: cells[1] ?? '' }))
    .filter((row): row is { key: string; defaultCell: string } => row.key !== undefined);
  const documented = rows.map((row) => row.key).sort();

  it('has a proxy options table', () => {
    expect(documented.length).toBeGreaterThan(0);
  });

  it('documents no option the schema lacks', () => {
    const unknown = documented.filter((key) => !schemaKeys.includes(key));
    expect(unknown.map((key) => `${key}${nearest(key, schemaKeys) ? ` (${nearest(key, schemaKeys)}?)` : ''}`)).toEqual(
      [],
    );
  });

  it('documents every option of the schema', () => {
    expect(schemaKeys.filter((key) => !documented.includes(key))).toEqual([]);
  });

  it("gives each option's default as the schema does", () => {
    const wrong: string[] = [];
    for (const { key, defaultCell } of rows) {
      const value = defaults[key];
      if (value === undefined) continue; // no fixed default (maxConcurrentStarts: four per core)
      const said =
        typeof value === 'number'
          ? Number(/^[\d,]+/.exec(defaultCell)?.[0].replace(/,/g, ''))
          : /^`([^`]*)`/.exec(defaultCell)?.[1];
      const expected = typeof value === 'number' ? value : typeof value === 'string' ? value : JSON.stringify(value);
      if (said !== expected) wrong.push(`${key}: the page says "${defaultCell}", the schema ${JSON.stringify(value)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('names only proxy options that exist, on every page', () => {
    const unknown: string[] = [];
    for (const path of PAGES) {
      read(path)
        .split('\n')
        .forEach((line, index) => {
          for (const match of line.matchAll(/(?<![\w.])proxy\.([A-Za-z]+)/g)) {
            if (!schemaKeys.includes(match[1]!)) unknown.push(`${where(path, index + 1)}: proxy.${match[1]}`);
          }
        });
    }
    expect(unknown).toEqual([]);
  });

  it('shows config examples that validate, on every page', () => {
    // A whole file, or a fragment of one: top-level members (`"policy": {...}`) or servers (`"linear": {...}`).
    const topLevel = Object.keys(ConfigFileSchema.shape);
    const examples: { at: string; config: Record<string, unknown> }[] = [];
    const profileProblems: string[] = [];
    for (const path of PAGES) {
      for (const fence of splitPage(read(path)).fences.filter((candidate) => candidate.info === 'json')) {
        const raw = jsonOf(fence.body) ?? jsonOf(`{${fence.body}}`);
        if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) continue;
        if ('formatVersion' in raw) {
          // A profile file (docs/profiles.md), checked as one.
          const at = where(path, fence.line);
          profileProblems.push(...readProfileFile(fence.body).problems.map((p) => `${at}: ${p.path}: ${p.message}`));
          continue;
        }
        const config = Object.keys(raw).some((key) => topLevel.includes(key)) ? raw : { mcpServers: raw };
        examples.push({ at: where(path, fence.line), config: config as Record<string, unknown> });
      }
    }
    expect(examples.some(({ at, config }) => at.startsWith('docs/config.md') && 'proxy' in config)).toBe(true);
    const problems = examples.flatMap(({ at, config }) =>
      parseConfig(config).problems.map((problem) => `${at}: ${problem.path}: ${problem.message}`),
    );
    expect(problems).toEqual([]);
    expect(profileProblems).toEqual([]);
  });
});

describe('the manual links and scripts resolve', () => {
  it('links to files that exist and to headings that exist', () => {
    const broken: string[] = [];
    for (const path of PAGES) {
      const prose = splitPage(read(path)).prose.replace(/(`+)[\s\S]*?[^`]\1(?!`)/g, (span) => span.replace(/\S/g, ' '));
      prose.split('\n').forEach((line, index) => {
        for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
          const target = match[1]!;
          if (/^[a-z]+:/i.test(target)) continue; // https:, mailto:
          const [file = '', anchor] = target.split('#');
          const targetPath = file ? resolve(dirname(path), file) : path;
          if (!existsSync(targetPath)) broken.push(`${where(path, index + 1)}: ${target} (no such file)`);
          else if (anchor !== undefined && targetPath.endsWith('.md') && !anchorsOf(targetPath).has(anchor))
            broken.push(`${where(path, index + 1)}: ${target} (no such heading)`);
        }
      });
    }
    expect(broken).toEqual([]);
  });

  it('lists every page of docs/ in its index', () => {
    const index = read(join(DOCS, 'README.md'));
    const pages = readdirSync(DOCS).filter((name) => name.endsWith('.md') && name !== 'README.md');
    expect(pages.filter((page) => !index.includes(`](${page})`))).toEqual([]);
  });

  it('names only npm scripts of package.json', () => {
    const scripts = Object.keys((JSON.parse(read(join(ROOT, 'package.json'))) as { scripts: object }).scripts);
    const unknown: string[] = [];
    for (const path of PAGES) {
      // Whitespace as one space: a code span may break its line inside (`npm run\nserve`).
      const text = read(path).replace(/\s+/g, ' ');
      for (const match of text.matchAll(/\bnpm (?:run (\S+?)|(start|test))(?=[\s`;,.)]|$)/g)) {
        const script = match[1] ?? match[2]!;
        if (!scripts.includes(script)) unknown.push(`${relative(ROOT, path)}: npm run ${script}`);
      }
    }
    expect(unknown).toEqual([]);
  });
});
