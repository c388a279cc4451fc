/**
 * Invisible, control and direction-changing characters written as `\u{...}`
 * escapes, so that what a model would read is what a person sees. One
 * definition for the scan's excerpts (core) and the review screen's field
 * texts (renderer), so a span reads the same in both.
 */

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
