/**
 * What changed in a tool's definition, old against new, as plain data: one
 * entry per field that differs, each cut into unchanged, removed and added
 * parts (jsdiff: words for text, lines for JSON), so the UI can mark the
 * difference side by side and the CLI can print it as a unified diff. Kept in
 * shared/ so the core, the contract and the renderer read the same shape.
 */
import { diffLines, diffWordsWithSpace } from 'diff';

/** A run of text that both sides share (neither flag), or that only the old (`removed`) or new (`added`) has. */
export interface DiffPart {
  value: string;
  added?: true;
  removed?: true;
}

/** The fields of a definition that are reviewed: what tool pinning hashes, besides the name. */
export const REVIEWED_FIELDS = ['description', 'inputSchema', 'outputSchema', 'annotations'] as const;
export type ReviewedField = (typeof REVIEWED_FIELDS)[number];

/** One field that differs. `before`/`after` are the field's text (JSON for schemas), absent when the side lacks it. */
export interface FieldDiff {
  field: ReviewedField;
  /** How the text was cut: `words` (descriptions) or `lines` (pretty-printed JSON). */
  unit: 'words' | 'lines';
  before?: string;
  after?: string;
  parts: DiffPart[];
}

/** A field's value as the text that is compared (JSON, two-space indented, with sorted keys for objects). */
function fieldText(field: ReviewedField, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (field === 'description') return typeof value === 'string' ? value : JSON.stringify(value);
  return `${JSON.stringify(sortedKeys(value), null, 2)}\n`;
}

/** `value` with object keys sorted at every level, so key order is never reported as a change. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, item]) => [key, sortedKeys(item)]),
    );
  }
  return value;
}

function parts(unit: FieldDiff['unit'], before: string, after: string): DiffPart[] {
  const changes = unit === 'words' ? diffWordsWithSpace(before, after) : diffLines(before, after);
  return changes.map((change) => ({
    value: change.value,
    ...(change.added ? { added: true as const } : {}),
    ...(change.removed ? { removed: true as const } : {}),
  }));
}

/**
 * The fields of `after` that differ from `before` (absent `before`: a new
 * definition, every field it has is added). Definitions are plain JSON objects.
 */
export function definitionDiff(
  before: Readonly<Record<string, unknown>> | undefined,
  after: Readonly<Record<string, unknown>>,
): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  for (const field of REVIEWED_FIELDS) {
    const old = fieldText(field, before?.[field]);
    const now = fieldText(field, after[field]);
    if (old === now) continue;
    const unit = field === 'description' ? 'words' : 'lines';
    diffs.push({
      field,
      unit,
      ...(old !== undefined ? { before: old } : {}),
      ...(now !== undefined ? { after: now } : {}),
      parts: parts(unit, old ?? '', now ?? ''),
    });
  }
  return diffs;
}

/** Lines of `text` (a trailing newline ends the last line, it does not start another). */
function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * One field's diff as unified-diff lines: a `@@ field @@` header, then ` `
 * (unchanged), `-` (old) and `+` (new) lines. A description is shown as its
 * old and new lines; JSON line by line.
 */
export function unifiedDiffLines(diff: FieldDiff): string[] {
  const lines = [`@@ ${diff.field} @@`];
  if (diff.unit === 'words') {
    lines.push(...linesOf(diff.before ?? '').map((line) => `-${line}`));
    lines.push(...linesOf(diff.after ?? '').map((line) => `+${line}`));
    return lines;
  }
  for (const part of diff.parts) {
    const mark = part.added ? '+' : part.removed ? '-' : ' ';
    lines.push(...linesOf(part.value).map((line) => `${mark}${line}`));
  }
  return lines;
}
