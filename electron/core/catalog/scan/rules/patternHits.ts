/**
 * Running a table of regular expressions over a text: each pattern with its
 * severity and message, every match a hit. Shared by the rules that are
 * mostly phrase lists (hidden instructions, exfiltration).
 */
import type { ScanSeverity } from '../../../../../shared/model/scanViews.js';
import type { RuleHit } from './rule.js';

/** One phrase pattern. Its regular expression must have the `g` flag. */
export interface PhrasePattern {
  pattern: RegExp;
  severity: ScanSeverity;
  message: string;
}

/** Every match of every pattern in `text`, as hits. */
export function phraseHits(text: string, patterns: readonly PhrasePattern[]): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const { pattern, severity, message } of patterns) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      if (match[0] === '') {
        pattern.lastIndex++;
        continue;
      }
      hits.push({ severity, start: match.index, end: match.index + match[0].length, message });
    }
  }
  return hits;
}
