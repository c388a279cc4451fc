/**
 * The whole text of each field a finding is about (the finding itself keeps
 * only its span's excerpt), so the review screen can show the span in place
 * with what surrounds it. Only fields with findings are taken: a review stays
 * small whatever a server lists.
 */
import type { ScanFinding } from '../../../../shared/model/scanViews.js';
import type { ScanField } from '../scan/scanFields.js';

/** `fields`' texts keyed by their dotted path, for the fields `findings` name. */
export function findingTexts(fields: readonly ScanField[], findings: readonly ScanFinding[]): Record<string, string> {
  const named = new Set(findings.map((finding) => finding.field));
  const texts: Record<string, string> = {};
  for (const field of fields) if (named.has(field.field)) texts[field.field] = field.text;
  return texts;
}
