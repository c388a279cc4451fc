/**
 * Look-alike letters from other scripts (Cyrillic "а", Greek "ο", fullwidth
 * or mathematical Latin) that make a name read as something it is not, or
 * let a word in a description slip past keyword filters. Which characters
 * look like Latin letters comes from Unicode's confusables table (TR39,
 * through `unhomoglyph`). In a name, a word that mixes them with Latin is
 * high, and a name made only of look-alikes is medium; in other text a word
 * that mixes them is medium. Plain accented Latin ("café") and CJK are not
 * look-alikes.
 */
import unhomoglyph from 'unhomoglyph';
import type { ScanSeverity } from '../../../../../shared/model/scanViews.js';
import type { RuleHit, ScanRuleCheck } from './rule.js';

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const ASCII_LETTER = /[A-Za-z]/;
const ASCII_ONLY = /^[\x00-\x7F]*$/;
const EAST_ASIAN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u;
const LATIN = /\p{Script=Latin}/u;
const LETTER = /\p{L}/u;
/** Characters already looked up; bounded, since a server chooses which characters we see. */
const lookalikeCache = new Map<string, boolean>();
const MAX_CACHED = 4096;

/** Whether `char` is not ASCII but looks like an ASCII letter or digit. */
export function isLatinLookalike(char: string): boolean {
  if (char.charCodeAt(0) < 0x80 || EAST_ASIAN.test(char)) return false;
  let known = lookalikeCache.get(char);
  if (known === undefined) {
    known = /^[A-Za-z0-9]+$/.test(unhomoglyph(char));
    if (lookalikeCache.size < MAX_CACHED) lookalikeCache.set(char, known);
  }
  return known;
}

/** The word as it reads: each look-alike replaced by the Latin it imitates. */
function readsAs(chars: string[]): string {
  return chars.map((char) => (isLatinLookalike(char) ? unhomoglyph(char) : char)).join('');
}

/** Look-alike letters in names and words. */
export const homoglyph: ScanRuleCheck = {
  rule: 'homoglyph',
  check(field) {
    const hits: RuleHit[] = [];
    if (ASCII_ONLY.test(field.text)) return hits;
    for (const match of field.text.matchAll(WORD)) {
      const word = match[0];
      const chars = [...word];
      const lookalikes = chars.filter(isLatinLookalike);
      if (lookalikes.length === 0) continue;
      const mixed = chars.some((char) => ASCII_LETTER.test(char) || (LATIN.test(char) && !isLatinLookalike(char)));
      const wholeScript = !mixed && chars.filter((char) => LETTER.test(char)).every(isLatinLookalike);
      const severity = severityOf(field.isName, mixed, wholeScript);
      if (!severity) continue;
      const start = match.index ?? 0;
      hits.push({
        severity,
        start,
        end: start + word.length,
        message: `${mixed ? 'mixes Latin with look-alike letters' : 'is made of look-alike letters'} (${describe(lookalikes)}); reads as "${readsAs(chars)}"`,
      });
    }
    return hits;
  },
};

function severityOf(isName: boolean, mixed: boolean, wholeScript: boolean): ScanSeverity | undefined {
  if (isName) return mixed ? 'high' : wholeScript ? 'medium' : undefined;
  return mixed ? 'medium' : undefined;
}

function describe(chars: string[]): string {
  return [...new Set(chars)]
    .slice(0, 6)
    .map((char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')} ${char}`)
    .join(', ');
}
