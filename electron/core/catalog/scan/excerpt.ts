/**
 * The text of a finding's span as people are shown it: invisible, control
 * and direction-changing characters written as `\u{...}` escapes so that what
 * the model would read is what the user sees, and very long spans shortened.
 */

/** Longest excerpt kept, in characters of the escaped text. */
export const MAX_EXCERPT_LENGTH = 200;

/**
 * Characters shown escaped: controls (but tab and newline), zero-width and
 * format characters, bidi controls, invisible fillers, variation selectors,
 * tag characters, private use and unassigned code points.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;

/** `text` with every invisible character escaped as `\u{XXXX}`. */
export function escapeInvisible(text: string): string {
  return text.replace(INVISIBLE, (char) =>
    char === '\n' || char === '\t' ? char : `\\u{${char.codePointAt(0)!.toString(16).toUpperCase()}}`,
  );
}

/** The excerpt of `text[start, end)`: escaped, and cut to {@link MAX_EXCERPT_LENGTH} with an ellipsis. */
export function excerptOf(text: string, start: number, end: number): string {
  const escaped = escapeInvisible(text.slice(start, end));
  return escaped.length <= MAX_EXCERPT_LENGTH ? escaped : `${escaped.slice(0, MAX_EXCERPT_LENGTH - 1)}…`;
}
