/**
 * Wording like the known poisonings, scored by a small linear model (a
 * logistic regression over each sentence's words and word pairs) fitted by
 * bench/trainScanModel.ts on the dev part of the labelled corpus only. It
 * catches orders the phrase rules have no pattern for, so on its own it says
 * medium, never high: the finding quotes the sentence that scored and names
 * the words that weighed most, so a person can judge it.
 */
import { WORDING_MODEL } from '../model/wordingWeights.js';
import { sentenceSpans, wordingFeatures } from '../model/wordingFeatures.js';
import type { RuleHit, ScanRuleCheck } from './rule.js';

/** Sentences shorter than this many words are not scored (too little to judge by). */
const MIN_WORDS = 4;

/** Sentences whose wording scores like the poisoned definitions. */
export const learnedWording: ScanRuleCheck = {
  rule: 'learned-wording',
  check(field) {
    if (field.isName) return [];
    const hits: RuleHit[] = [];
    for (const span of sentenceSpans(field.text)) {
      const sentence = field.text.slice(span.start, span.end);
      const features = wordingFeatures(sentence);
      if (features.filter((f) => !f.gram.includes(' ')).length < MIN_WORDS) continue;
      const weighed = new Map<string, number>();
      for (const { gram } of features) weighed.set(gram, WORDING_MODEL.weights[gram] ?? 0);
      const z = WORDING_MODEL.bias + [...weighed.values()].reduce((sum, w) => sum + w, 0);
      const p = 1 / (1 + Math.exp(-z));
      if (p <= WORDING_MODEL.threshold) continue;
      const top = [...weighed]
        .filter(([, w]) => w > 0)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 3)
        .map(([gram]) => `"${gram}"`);
      const lead = sentence.length - sentence.trimStart().length;
      const tail = sentence.length - sentence.trimEnd().length;
      hits.push({
        severity: 'medium',
        start: span.start + lead,
        end: span.end - tail,
        message: `wording like known poisonings (score ${p.toFixed(2)}; weighed most: ${top.join(', ')})`,
      });
    }
    return hits;
  },
};
