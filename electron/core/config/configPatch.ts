/**
 * A change to config.json as a patch on the text: the values a writer changed
 * (found by comparing the document before and after its change) are set or
 * removed one path at a time with jsonc-parser, so every key it did not touch
 * keeps its bytes, order and comments, and the file's own indentation and line
 * endings are used for what is inserted.
 */
import { applyEdits, modify, parseTree, printParseErrorCode, type JSONPath, type ParseError } from 'jsonc-parser';
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

/** Applies path edits to JSON text; a missing or blank file starts as `{}`. */
export function applyPathEdits(text: string | undefined, edits: PathEdit[]): string {
  let result = text === undefined || text.trim() === '' ? '{}\n' : text;
  const formattingOptions = formattingOf(result);
  for (const edit of edits) {
    result = applyEdits(result, modify(result, edit.path, edit.value, { formattingOptions }));
  }
  return result.endsWith('\n') ? result : `${result}${formattingOptions.eol}`;
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
