/**
 * Editing one entry of a client's JSON or JSONC config as text. Only the bytes
 * of that entry (and the comma before it) change: every other entry keeps its
 * formatting, key order, comments and line endings. jsonc-parser's own
 * `modify` re-formats the lines around an edit (it would reflow a neighbour's
 * one-line entry), so insertion and removal are done here from its syntax
 * tree's offsets.
 */
import {
  findNodeAtLocation,
  getNodeValue,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import type { ConfigDocument, DocumentProblem } from './documentTypes.js';

/** Line and column (1-based) of an offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** Leading whitespace of the line holding `offset`. */
function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** The file's indentation unit, guessed from the root's first member (two spaces if none). */
function indentUnit(text: string, root: Node): string {
  const first = root.children?.[0];
  const indent = first ? indentAt(text, first.offset) : '';
  return indent.length > 0 && text.lastIndexOf('\n', first!.offset) > root.offset ? indent : '  ';
}

/** `value` as JSON whose continuation lines start at `indent`. */
function render(value: unknown, unit: string, indent: string, eol: string): string {
  return JSON.stringify(value, null, unit).split('\n').join(`${eol}${indent}`);
}

/** End of the line holding `offset` (the offset of its line break, or the text's end). */
function lineEnd(text: string, offset: number): number {
  const next = text.indexOf('\n', offset);
  if (next === -1) return text.length;
  return next > 0 && text[next - 1] === '\r' ? next - 1 : next;
}

/**
 * Where the line holding `offset` ends, if only whitespace and comments
 * follow `offset` on it (a comment stays with the entry it follows);
 * otherwise `offset` itself (more JSON follows on that line, as in a minified file).
 */
function afterLine(text: string, offset: number): number {
  const end = lineEnd(text, offset);
  return /^\s*(\/\/.*|\/\*.*?\*\/\s*)?$/.test(text.slice(offset, end)) ? end : offset;
}

/** Offset of the first `,` after `from`, skipping whitespace and comments (or -1). */
function commaAfter(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const rest = text.slice(i);
    const skip = /^(\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)/.exec(rest);
    if (skip) {
      i += skip[0].length;
      continue;
    }
    return text[i] === ',' ? i : -1;
  }
  return -1;
}

type Edit = { offset: number; length: number; content: string };

/** Applies edits from the end backwards; of two at one offset, the one listed first ends up first. */
function apply(text: string, edits: Edit[]): string {
  let result = text;
  const ordered = edits.map((edit, index) => ({ edit, index }));
  ordered.sort((a, b) => b.edit.offset - a.edit.offset || b.index - a.index);
  for (const { edit } of ordered) {
    result = result.slice(0, edit.offset) + edit.content + result.slice(edit.offset + edit.length);
  }
  return result;
}

/** Edits that add `"key": value` as the last member of `object`. */
function insertMember(text: string, object: Node, key: string, value: unknown, unit: string): Edit[] {
  const eol = eolOf(text);
  const members = object.children ?? [];
  const last = members[members.length - 1];
  if (last) {
    const indent = indentAt(text, last.offset);
    const end = last.offset + last.length;
    if (!text.slice(object.offset, object.offset + object.length).includes('\n')) {
      // A one-line object (a minified file) stays on one line.
      return [{ offset: end, length: 0, content: `,${JSON.stringify(key)}:${JSON.stringify(value)}` }];
    }
    const member = `${JSON.stringify(key)}: ${render(value, unit, indent, eol)}`;
    if (commaAfter(text, end) !== -1) {
      // A trailing comma (JSONC): the new member goes after it, on its own line.
      const at = afterLine(text, commaAfter(text, end) + 1);
      return [{ offset: at, length: 0, content: `${eol}${indent}${member},` }];
    }
    // The comma right after the value; the member after the rest of that line (a comment stays with its entry).
    return [
      { offset: end, length: 0, content: ',' },
      { offset: afterLine(text, end), length: 0, content: `${eol}${indent}${member}` },
    ];
  }
  const outer = indentAt(text, object.offset);
  const indent = outer + unit;
  const member = `${JSON.stringify(key)}: ${render(value, unit, indent, eol)}`;
  return [{ offset: object.offset + 1, length: 0, content: `${eol}${indent}${member}${eol}${outer}` }];
}

/** Edits that remove the member `property` of `object`, the inverse of {@link insertMember} where it can be. */
function removeMember(text: string, object: Node, property: Node): Edit[] {
  const members = object.children ?? [];
  const index = members.indexOf(property);
  const end = property.offset + property.length;
  const trailing = commaAfter(text, end);
  if (members.length === 1) {
    return [
      { offset: object.offset + 1, length: object.offset + object.length - 1 - (object.offset + 1), content: '' },
    ];
  }
  if (index === members.length - 1) {
    const previous = members[index - 1]!;
    const comma = commaAfter(text, previous.offset + previous.length);
    const from = afterLine(text, comma + 1);
    // Trailing-comma style (JSONC): the comma before us stays, ours goes with us.
    if (trailing !== -1) return [{ offset: from, length: trailing + 1 - from, content: '' }];
    return [
      { offset: comma, length: 1, content: '' },
      { offset: from, length: end - from, content: '' },
    ];
  }
  // Not the last member: remove its whole lines, up to the next member's line.
  const next = members[index + 1]!;
  const start = text.lastIndexOf('\n', property.offset - 1) + 1;
  const nextStart = text.lastIndexOf('\n', next.offset - 1) + 1;
  if (nextStart > start) return [{ offset: start, length: nextStart - start, content: '' }];
  return [{ offset: property.offset, length: next.offset - property.offset, content: '' }];
}

/** A JSON (`comments: false`) or JSONC client config, held as text. */
export class JsonDocument implements ConfigDocument {
  private constructor(
    private text: string,
    private readonly comments: boolean,
  ) {}

  /** Parses `text`; a syntax error (or a comment in a strict JSON file) is a problem with its line and column. */
  static parse(text: string, comments: boolean): { document?: JsonDocument; problem?: DocumentProblem } {
    if (text.trim() === '') return { document: new JsonDocument('', comments) };
    const errors: ParseError[] = [];
    const root = parseTree(text, errors, { allowTrailingComma: comments, disallowComments: !comments });
    const error = errors[0];
    if (error) {
      const where = lineColumn(text, error.offset);
      return {
        problem: { ...where, message: `not valid ${comments ? 'JSONC' : 'JSON'}: ${printParseErrorCode(error.error)}` },
      };
    }
    if (root?.type !== 'object') return { problem: { line: 1, column: 1, message: 'the top level is not an object' } };
    return { document: new JsonDocument(text, comments) };
  }

  private root(): Node | undefined {
    return this.text.trim() === '' ? undefined : parseTree(this.text, [], { allowTrailingComma: this.comments });
  }

  /** @inheritdoc */
  toString(): string {
    return this.text;
  }

  /** @inheritdoc */
  getContainer(container: string): Record<string, unknown> | undefined {
    const root = this.root();
    const node = root && findNodeAtLocation(root, [container]);
    const value = node ? (getNodeValue(node) as unknown) : undefined;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  }

  /** @inheritdoc */
  containerKind(container: string): 'absent' | 'object' | 'other' {
    const root = this.root();
    const node = root && findNodeAtLocation(root, [container]);
    return !node ? 'absent' : node.type === 'object' ? 'object' : 'other';
  }

  /** @inheritdoc */
  setEntry(container: string, key: string, value: unknown): void {
    const root = this.root();
    if (!root) {
      const eol = '\n';
      this.text = `{${eol}  ${JSON.stringify(container)}: ${render({ [key]: value }, '  ', '  ', eol)}${eol}}${eol}`;
      return;
    }
    const unit = indentUnit(this.text, root);
    const holder = findNodeAtLocation(root, [container]);
    if (!holder) {
      this.text = apply(this.text, insertMember(this.text, root, container, { [key]: value }, unit));
      return;
    }
    if (holder.type !== 'object') throw new Error(`"${container}" is not an object`);
    const existing = findNodeAtLocation(holder, [key])?.parent;
    if (existing) {
      const valueNode = existing.children![1]!;
      const indent = indentAt(this.text, existing.offset);
      const content = render(value, unit, indent, eolOf(this.text));
      this.text = apply(this.text, [{ offset: valueNode.offset, length: valueNode.length, content }]);
      return;
    }
    this.text = apply(this.text, insertMember(this.text, holder, key, value, unit));
  }

  /** @inheritdoc */
  removeEntry(container: string, key: string, removeEmptyContainer: boolean): boolean {
    const root = this.root();
    const holder = root && findNodeAtLocation(root, [container]);
    const property = holder?.type === 'object' ? findNodeAtLocation(holder, [key])?.parent : undefined;
    if (!root || !holder || !property) return false;
    if (removeEmptyContainer && holder.children?.length === 1) {
      this.text = apply(this.text, removeMember(this.text, root, holder.parent!));
      return true;
    }
    this.text = apply(this.text, removeMember(this.text, holder, property));
    return true;
  }
}
