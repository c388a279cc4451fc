/**
 * A field's structured diff as its two sides: the approved text (unchanged
 * and removed parts) and the offered text (unchanged and added parts), with
 * invisible characters escaped so a change hidden in them shows.
 */
import type { DiffPart, FieldDiff, ReviewedField } from '../../../../shared/model/definitionDiff.js';
import { escapeInvisible } from '../../../../shared/model/invisibleText.js';

/** What each reviewed field is called on screen. */
export const FIELD_LABEL: Record<ReviewedField, string> = {
  description: 'Description',
  inputSchema: 'Input schema',
  outputSchema: 'Output schema',
  annotations: 'Annotations',
};

/** The old side and the new side of a field's diff. */
export interface DiffSides {
  before: DiffPart[];
  after: DiffPart[];
}

/** `diff` cut into its two sides (empty parts dropped). */
export function diffSides(diff: FieldDiff): DiffSides {
  const shown = diff.parts
    .filter((part) => part.value !== '')
    .map((part) => ({ ...part, value: escapeInvisible(part.value) }));
  return { before: shown.filter((part) => !part.added), after: shown.filter((part) => !part.removed) };
}
