/**
 * A finding's span inside the whole text of its field, cut for display: some
 * context either side (marked when cut), every part with invisible characters
 * escaped as the scan's excerpt does, so the marked words are exactly what
 * the model reads. Falls back to the excerpt alone when the field's text is
 * not at hand or the span does not fit it.
 */
import { escapeInvisible } from '../../../../shared/model/invisibleText.js';
import type { ScanFinding } from '../../../../shared/model/scanViews.js';

/** The field's text around a span: escaped parts, and whether text was cut before or after. */
export interface SpanInText {
  before: string;
  match: string;
  after: string;
  cutBefore: boolean;
  cutAfter: boolean;
}

/** Characters of context kept either side of a span. */
export const SPAN_CONTEXT = 120;

const isLowSurrogate = (text: string, at: number) => {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff;
};

/** `finding`'s span in `text` (undefined: the text does not hold the span, show the excerpt). */
export function spanInText(
  text: string | undefined,
  finding: Pick<ScanFinding, 'span'>,
  context = SPAN_CONTEXT,
): SpanInText | undefined {
  const { start, end } = finding.span;
  if (text === undefined || start < 0 || end > text.length || start > end) return undefined;
  let from = Math.max(0, start - context);
  let to = Math.min(text.length, end + context);
  // Never cut a character in two (a surrogate pair: emoji, tag characters).
  if (from > 0 && isLowSurrogate(text, from)) from -= 1;
  if (to < text.length && isLowSurrogate(text, to)) to += 1;
  return {
    before: escapeInvisible(text.slice(from, start)),
    match: escapeInvisible(text.slice(start, end)),
    after: escapeInvisible(text.slice(end, to)),
    cutBefore: from > 0,
    cutAfter: to < text.length,
  };
}
