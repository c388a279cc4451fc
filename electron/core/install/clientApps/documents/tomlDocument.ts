/**
 * Codex's `config.toml`, edited as text: smol-toml validates and reads it,
 * but no TOML library writes a document back with its comments and layout,
 * so our entry is one `[container.key]` table appended at the end (its
 * headers inline, so the table is one block) and removed by cutting that block
 * out again. Every other byte stays as it was.
 */
import { parse, TomlError } from 'smol-toml';
import type { ConfigDocument, DocumentProblem } from './documentTypes.js';

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

function tomlKey(key: string): string {
  return BARE_KEY.test(key) ? key : JSON.stringify(key);
}

/** A TOML value for strings, numbers, booleans, arrays and (inline) tables. JSON string escapes are valid TOML. */
function tomlValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlValue).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const pairs = Object.entries(value).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`);
    return pairs.length === 0 ? '{}' : `{ ${pairs.join(', ')} }`;
  }
  throw new Error(`cannot write ${String(value)} as TOML`);
}

/** Splits a table header's dotted key (`mcp_servers."a.b"`) into its parts. */
function headerPath(inner: string): string[] {
  const parts: string[] = [];
  const pattern = /\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*(\.|$)/gy;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(inner)) !== null && match[0] !== '') {
    const raw = match[1]!;
    parts.push(raw.startsWith('"') ? (JSON.parse(raw) as string) : raw.startsWith("'") ? raw.slice(1, -1) : raw);
    if (match[2] === '') break;
  }
  return parts;
}

interface Line {
  start: number;
  end: number; // after its line break
  text: string;
  /** The header's key path when the line is a `[table]` header (not `[[array]]`). */
  header?: string[];
  isArrayHeader?: boolean;
}

/** The document's lines, with table headers recognised (lines inside multi-line strings never count). */
function scan(text: string): Line[] {
  const lines: Line[] = [];
  let offset = 0;
  let inMultiline: string | undefined;
  for (const raw of text.split(/(?<=\n)/)) {
    const line: Line = { start: offset, end: offset + raw.length, text: raw };
    offset += raw.length;
    const body = raw.replace(/\r?\n$/, '');
    if (inMultiline === undefined) {
      const array = /^\s*\[\[/.test(body);
      const header = /^\s*\[([^[\]]+)\]\s*(#.*)?$/.exec(body);
      if (array) line.isArrayHeader = true;
      else if (header) line.header = headerPath(header[1]!);
    }
    for (const quote of ['"""', "'''"]) {
      const count = body.split(quote).length - 1;
      if (count % 2 === 1 && (inMultiline === undefined || inMultiline === quote)) {
        inMultiline = inMultiline === undefined ? quote : undefined;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** A TOML client config, held as text. */
export class TomlDocument implements ConfigDocument {
  private constructor(private text: string) {}

  /** Parses `text`; a syntax error is a problem with its line and column. */
  static parse(text: string): { document?: TomlDocument; problem?: DocumentProblem } {
    try {
      parse(text);
      return { document: new TomlDocument(text) };
    } catch (error) {
      if (error instanceof TomlError) {
        const message = error.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '');
        return { problem: { line: error.line, column: error.column, message: `not valid TOML: ${message}` } };
      }
      throw error;
    }
  }

  /** @inheritdoc */
  toString(): string {
    return this.text;
  }

  /** @inheritdoc */
  getContainer(container: string): Record<string, unknown> | undefined {
    const value = parse(this.text)[container];
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  }

  /** @inheritdoc */
  containerKind(container: string): 'absent' | 'object' | 'other' {
    const value = parse(this.text)[container];
    if (value === undefined) return 'absent';
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? 'object' : 'other';
  }

  /** Offsets of the `[container.key]` table and its sub-tables, or undefined when it is not written as such a table. */
  private block(
    container: string,
    key: string,
  ): { start: number; end: number; lines: Line[]; index: number } | undefined {
    const lines = scan(this.text);
    const index = lines.findIndex((l) => l.header?.length === 2 && l.header[0] === container && l.header[1] === key);
    if (index === -1) return undefined;
    let last = index;
    for (let i = index + 1; i < lines.length; i++) {
      const line = lines[i]!;
      const ours = line.header !== undefined && line.header[0] === container && line.header[1] === key;
      if ((line.header || line.isArrayHeader) && !ours) break;
      last = i;
    }
    // Blank and comment lines after our keys are not ours (we write none): they stay, with the next table or at the end.
    while (last > index && /^\s*(#.*)?\r?\n?$/.test(lines[last]!.text)) last--;
    return { start: lines[index]!.start, end: lines[last]!.end, lines, index };
  }

  private render(container: string, key: string, value: unknown, eol: string): string {
    const entries = Object.entries(value as Record<string, unknown>);
    const body = entries.map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}${eol}`).join('');
    return `[${tomlKey(container)}.${tomlKey(key)}]${eol}${body}`;
  }

  /** @inheritdoc */
  setEntry(container: string, key: string, value: unknown): void {
    const eol = this.text.includes('\r\n') ? '\r\n' : '\n';
    const table = this.render(container, key, value, eol);
    const existing = this.block(container, key);
    let next: string;
    if (existing) {
      next = this.text.slice(0, existing.start) + table + this.text.slice(existing.end);
    } else {
      if (this.getContainer(container)?.[key] !== undefined) {
        throw new Error(`${container}.${key} is not written as a [${container}.${key}] table; edit it by hand`);
      }
      const separator = this.text === '' ? '' : this.text.endsWith('\n') ? eol : `${eol}${eol}`;
      next = `${this.text}${separator}${table}`;
    }
    // Appending a table is invalid when the container is an inline table or an array of tables: refuse then.
    TomlDocument.assertValid(next, container, key);
    this.text = next;
  }

  private static assertValid(text: string, container: string, key: string): void {
    const checked = TomlDocument.parse(text);
    if (checked.problem) {
      throw new Error(
        `adding [${container}.${key}] would make the file invalid (${checked.problem.message}); edit it by hand`,
      );
    }
  }

  /** @inheritdoc */
  removeEntry(container: string, key: string, removeEmptyContainer: boolean): boolean {
    const block = this.block(container, key);
    if (!block) {
      if (this.getContainer(container)?.[key] !== undefined) {
        throw new Error(`${container}.${key} is not written as a [${container}.${key}] table; remove it by hand`);
      }
      return false;
    }
    let start = block.start;
    // The blank line we put before the table when appending it.
    const before = block.lines[block.index - 1];
    if (before && /^\s*\r?\n$/.test(before.text)) start = before.start;
    const next = this.text.slice(0, start) + this.text.slice(block.end);
    TomlDocument.assertValid(next, container, key);
    this.text = next;
    // An empty `[container]` header left alone is harmless; it is only dropped when asked and truly empty.
    if (removeEmptyContainer) {
      const lines = scan(this.text);
      const header = lines.findIndex((l) => l.header?.length === 1 && l.header[0] === container);
      const following = lines[header + 1];
      const empty = this.getContainer(container) && Object.keys(this.getContainer(container)!).length === 0;
      if (header !== -1 && empty && (!following || following.header || following.isArrayHeader)) {
        this.text = this.text.slice(0, lines[header]!.start) + this.text.slice(lines[header]!.end);
      }
    }
    return true;
  }
}
