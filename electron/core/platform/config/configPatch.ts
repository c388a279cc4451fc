/**
 * A change to config.json as a patch on the text: the values a writer changed
 * (found by comparing the document before and after its change) are set or
 * removed one path at a time with jsonc-parser, so every key it did not touch
 * keeps its bytes, order and comments, and the file's own indentation and line
 * endings are used for what is inserted.
 */
import {
  applyEdits,
  findNodeAtLocation,
  format,
  modify,
  parseTree,
  printParseErrorCode,
  type JSONPath,
  type ParseError,
} from 'jsonc-parser';
import { isDeepStrictEqual } from 'node:util';

/** One change: `value` undefined removes the member at `path`. */
export interface PathEdit {
  path: JSONPath;
  value: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The smallest set of path edits turning `before` into `after`: objects are
 * compared member by member; any other value (arrays included) is replaced whole.
 */
export function diffPaths(before: unknown, after: unknown, path: JSONPath = []): PathEdit[] {
  if (isDeepStrictEqual(before, after)) return [];
  if (isPlainObject(before) && isPlainObject(after)) return diffMembers(before, after, path);
  return [{ path, value: after }];
}

function diffMembers(before: Record<string, unknown>, after: Record<string, unknown>, path: JSONPath): PathEdit[] {
  const edits: PathEdit[] = [];
  for (const key of Object.keys(before)) {
    if (!(key in after)) edits.push({ path: [...path, key], value: undefined });
  }
  for (const [key, value] of Object.entries(after)) {
    if (!(key in before)) edits.push({ path: [...path, key], value });
    else edits.push(...diffPaths(before[key], value, [...path, key]));
  }
  return edits;
}

/** The indentation and line ending the file already uses (two spaces and `\n` for a new file). */
function formattingOf(text: string): { insertSpaces: boolean; tabSize: number; eol: string } {
  const indent = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return {
    insertSpaces: !indent.startsWith('\t'),
    tabSize: indent.startsWith('\t') ? 1 : indent.length,
    eol: text.includes('\r\n') ? '\r\n' : '\n',
  };
}

type Formatting = ReturnType<typeof formattingOf>;

/** `value` nested under `path` (`['a', 'b']`, 1 -> `{a: {b: 1}}`). */
function nest(path: JSONPath, value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [String(key)]: inner }), value);
}

/**
 * Sets one value. jsonc-parser's own formatting re-flows every line an edit
 * touches (a neighbour's one-line object too), so the edit is made unformatted
 * and only the inserted text is formatted, in the file's indentation. An empty
 * object being filled is replaced whole, so its first member starts on a line
 * of its own.
 */
function setValue(text: string, path: JSONPath, value: unknown, formatting: Formatting): string {
  const root = parseTree(text);
  for (let depth = path.length - 1; depth >= 0 && root; depth--) {
    const ancestor = findNodeAtLocation(root, path.slice(0, depth));
    if (!ancestor) continue;
    if (ancestor.type === 'object' && (ancestor.children ?? []).length === 0 && depth < path.length) {
      if (depth === 0) {
        const unit = formatting.insertSpaces ? ' '.repeat(formatting.tabSize) : '\t';
        return `${JSON.stringify(nest(path, value), null, unit).split('\n').join(formatting.eol)}${formatting.eol}`;
      }
      return setValue(text, path.slice(0, depth), nest(path.slice(depth), value), formatting);
    }
    break;
  }
  let result = text;
  const edits = [...modify(text, path, value, {})].sort((a, b) => b.offset - a.offset);
  for (const edit of edits) {
    result = applyEdits(result, [edit]);
    if (edit.content.length === 0) continue;
    const range = { offset: edit.offset, length: edit.content.length };
    result = applyEdits(result, format(result, range, { ...formatting, keepLines: false }));
  }
  return result;
}

/** Applies path edits to JSON text; a missing or blank file starts as `{}`. */
export function applyPathEdits(text: string | undefined, edits: PathEdit[]): string {
  if (text === undefined || text.trim() === '') {
    const document: Record<string, unknown> = {};
    patchObject(document, edits);
    return `${JSON.stringify(document, null, 2)}\n`;
  }
  const formatting = formattingOf(text);
  let result = text;
  for (const edit of edits) {
    result =
      edit.value === undefined
        ? // A removal re-flows only the lines it joins (the member's own are gone).
          applyEdits(result, modify(result, edit.path, undefined, { formattingOptions: formatting }))
        : setValue(result, edit.path, edit.value, formatting);
  }
  return result.endsWith('\n') ? result : `${result}${formatting.eol}`;
}

/**
 * Where JSON text stops parsing (1-based line and column) and why, or
 * undefined when it parses. Comments and trailing commas count as errors: the
 * file is strict JSON.
 */
export function parseFailure(text: string): { line: number; column: number; reason: string } | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch {
    // Located below: JSON.parse's messages differ between Node versions.
  }
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  const offset = errors[0]?.offset ?? 0;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return { line, column, reason: errors[0] ? printParseErrorCode(errors[0].error) : 'not valid JSON' };
}

/**
 * Applies path edits to a plain object in place (creating the objects on the
 * way), the in-memory twin of {@link applyPathEdits}.
 */
export function patchObject(target: Record<string, unknown>, edits: PathEdit[]): void {
  for (const { path, value } of edits) {
    if (path.length === 0) continue;
    let holder = target;
    for (const key of path.slice(0, -1)) {
      const next = holder[String(key)];
      if (!isPlainObject(next)) holder[String(key)] = {};
      holder = holder[String(key)] as Record<string, unknown>;
    }
    const last = String(path[path.length - 1]);
    if (value === undefined) delete holder[last];
    else holder[last] = structuredClone(value);
  }
}
