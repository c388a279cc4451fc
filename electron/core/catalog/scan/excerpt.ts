/**
 * The text of a finding's span as people are shown it: invisible, control
 * and direction-changing characters written as `\u{...}` escapes (the shared
 * definition, which the review screen uses too) so that what the model would
 * read is what the user sees, and very long spans shortened.
 */
import { escapeInvisible } from '../../../../shared/model/invisibleText.js';

/** Longest excerpt kept, in characters of the escaped text. */
export const MAX_EXCERPT_LENGTH = 200;

/** The excerpt of `text[start, end)`: escaped, and cut to {@link MAX_EXCERPT_LENGTH} with an ellipsis. */
export function excerptOf(text: string, start: number, end: number): string {
  const escaped = escapeInvisible(text.slice(start, end));
  return escaped.length <= MAX_EXCERPT_LENGTH ? escaped : `${escaped.slice(0, MAX_EXCERPT_LENGTH - 1)}…`;
}
