/**
 * Characters the model reads and people do not see: Unicode tag characters
 * (U+E0000 block; "ASCII smuggling" spells whole instructions with them),
 * bidi controls that reorder what is shown (Trojan Source), zero-width and
 * other format characters, invisible fillers, runs of variation selectors,
 * control characters, and long runs of white space that push a payload out
 * of view. Each run of such characters is one hit; tag text is decoded into
 * the message. Zero-width joiners inside emoji and scripts that need them
 * (Arabic, Persian, Indic) are ordinary and not flagged.
 */
import type { ScanSeverity } from '../../../../../shared/model/scanViews.js';
import type { RuleHit, ScanRuleCheck } from './rule.js';

const TAGS = /[\u{E0000}-\u{E007F}]+/gu;
const BIDI = /[\u202A-\u202E\u2066-\u2069]+/g;
const BIDI_MARKS = /[\u200E\u200F\u061C]+/g;
const ZERO_WIDTH = /[\u200B-\u200D\u2060-\u2064\uFEFF\u180E\u034F\u115F\u1160\u3164\uFFA0\u2800]+/g;
const VARIATION_RUN = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]{3,}/gu;
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]+/g;
const PADDING = /(?:[ \t\u00A0\u2000-\u200A\u3000]{80,}|(?:[ \t]*\r?\n){12,})/g;

/** Printable ASCII, tab and line breaks only: nothing here can be invisible (but padding). */
const PLAIN = /^[\x20-\x7E\t\n\r]*$/;
/** A cheap first look for padding: 80 spaces in a row, or blank lines in a row. */
const PADDING_HINT = / {80}|\n[ \t]*\n[ \t]*\n/;

/** Letters of scripts that join with ZWJ / ZWNJ, and emoji, around a joiner. */
const JOINING_NEIGHBOUR =
  /[\p{Script=Arabic}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Syriac}\p{Script=Mongolian}\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;

/** Invisible and direction-changing characters. */
export const invisibleText: ScanRuleCheck = {
  rule: 'invisible-text',
  check(field) {
    const text = field.text;
    if (PLAIN.test(text) && !PADDING_HINT.test(text)) return [];
    // In a name, nothing invisible is ordinary.
    const nameFloor = (severity: ScanSeverity): ScanSeverity => (field.isName ? 'high' : severity);
    const hits: RuleHit[] = [];
    for (const match of text.matchAll(TAGS)) {
      hits.push(hit(match, 'high', `Unicode tag characters hiding text: "${decodeTags(match[0])}"`));
    }
    for (const match of text.matchAll(BIDI)) {
      hits.push(hit(match, 'high', 'bidi control characters that reorder what is shown'));
    }
    for (const match of text.matchAll(BIDI_MARKS)) {
      hits.push(hit(match, nameFloor('low'), 'invisible direction marks'));
    }
    for (const match of text.matchAll(ZERO_WIDTH)) {
      if (isOrdinaryJoiner(text, match)) continue;
      const severity = match[0].length >= 3 ? 'high' : 'medium';
      hits.push(hit(match, nameFloor(severity), `${match[0].length} zero-width or invisible character(s)`));
    }
    for (const match of text.matchAll(VARIATION_RUN)) {
      hits.push(hit(match, 'high', 'a run of variation selectors, which can encode hidden bytes'));
    }
    for (const match of text.matchAll(CONTROLS)) {
      hits.push(hit(match, nameFloor('medium'), 'control characters'));
    }
    if (!field.isName) {
      for (const match of text.matchAll(PADDING)) {
        hits.push(hit(match, 'medium', 'a long run of white space that can push text out of view'));
      }
    }
    return hits;
  },
};

function hit(match: RegExpMatchArray, severity: ScanSeverity, message: string): RuleHit {
  const start = match.index ?? 0;
  return { severity, start, end: start + match[0].length, message };
}

/** A lone ZWJ / ZWNJ between letters of a joining script or inside an emoji sequence. */
function isOrdinaryJoiner(text: string, match: RegExpMatchArray): boolean {
  if (!/^[\u200C\u200D]$/.test(match[0])) return false;
  const start = match.index ?? 0;
  const before = String.fromCodePoint(text.codePointAt(Math.max(0, start - 2)) ?? 0);
  const beforeOne = text[start - 1] ?? '';
  const after = String.fromCodePoint(text.codePointAt(start + 1) ?? 0);
  return [before, beforeOne, after].some((char) => JOINING_NEIGHBOUR.test(char));
}

/** The ASCII that tag characters spell (U+E0020..U+E007E map to ' '..'~'). */
export function decodeTags(run: string): string {
  let decoded = '';
  for (const char of run) {
    const code = char.codePointAt(0)! - 0xe0000;
    decoded += code >= 0x20 && code <= 0x7e ? String.fromCharCode(code) : '';
  }
  return decoded.length > 120 ? `${decoded.slice(0, 119)}…` : decoded;
}
