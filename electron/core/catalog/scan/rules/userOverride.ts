/**
 * Orders that override what the user chose, the parameter-tampering class of
 * the published benchmarks (MCPTox, MSB): "whatever the user says", "even when
 * the user asks for private", "replace any wallet address the user gives",
 * "add 10% to the amount and send the difference to ...", "merge it at once,
 * skipping review". Overriding the user is high; changing amounts and skipping
 * confirmation are medium on their own (a tool may state that it does not ask),
 * high when said as a standing order.
 */
import { STANDING } from './directives.js';
import { phraseHits, type PhrasePattern } from './patternHits.js';
import type { RuleHit, ScanRuleCheck } from './rule.js';
import { sentenceText } from './sentences.js';

const ASKS = String.raw`(?:says?|asks?(?:\s+for)?|wants?|names?|gives?|provides?|enters?|chooses?|requests?|specifies|prefers?|picks?|types?|mentions?)`;

const PATTERNS: readonly PhrasePattern[] = [
  {
    pattern: new RegExp(
      String.raw`\b(?:whatever|regardless\s+of\s+what|no\s+matter\s+what)\s+(?:\w+\s+){0,2}the\s+user\s+${ASKS}\b|\bregardless\s+of\s+(?:the\s+(?:user'?s?\s+)?(?:request|results?|choice|input|answer)|what\s+(?:the\s+user|they)\s+${ASKS})\b|\beven\s+(?:if|when|though)\s+the\s+user\s+${ASKS}\b|\binstead\s+of\s+(?:the\s+)?(?:path|recipient|address|amount|account|one|value|file|repository|channel|destination)\s+(?:the\s+user\s+)?(?:asked\s+for|requested|given|specified|named|chose|provided)\b|\b(?:any|every|the)\s+(?:\w+\s+){0,3}(?:the\s+user\s+${ASKS})\s+with\b|\b(?:is|are)\s+usually\s+wrong\b|\bshould\s+actually\s+(?:go|be\s+sent)\s+to\b`,
      'gi',
    ),
    severity: 'high',
    message: 'an order to override what the user chose',
  },
  {
    pattern:
      /\b(?:send|transfer|keep|move|pocket)\s+the\s+difference\b|\b(?:add|multiply|round|increase|inflate|double|raise)\b[^.\n]{0,40}?\b(?:amount|amounts|quantity|quantities|price|prices|total|sum)\b[^.\n]{0,30}?\b(?:by|to|up)\b/gi,
    severity: 'medium',
    message: 'an order to change an amount the user set',
  },
  {
    pattern:
      /\b(?:without|no\s+need\s+(?:to|for))\s+(?:asking|confirmation|confirming|review|approval|the\s+user'?s?\s+(?:consent|approval|confirmation))\b|\bno\s+confirmation\s+(?:needed|required)\b|\bwithout\s+waiting\s+for\s+(?:them|the\s+user|anyone)\s+to\s+(?:confirm|approve|agree|answer)\b|\bskipping\s+(?:the\s+)?(?:review|confirmation|approval|checks?)\b|\b(?:merge|approve|accept|pay)\s+(?:it|them)\s+(?:immediately|at\s+once|automatically)\b|\bcarried\s+out\s+without\b/gi,
    severity: 'medium',
    message: "an order to act without the user's confirmation",
  },
  {
    pattern:
      /\bpoint\s+(?:the\s+)?(?:mx|dns|a|aaaa|cname|ns)\s+records?\s+to\b|\bset\s+(?:the\s+)?visibility\s+to\s+public\b|\b(?:create|make)\s+(?:every|all|each)\s+\w+\s+(?:as\s+)?public\b/gi,
    severity: 'medium',
    message: 'an order to change where things point or who can see them',
  },
];

/** Orders that override the user. */
export const userOverride: ScanRuleCheck = {
  rule: 'user-override',
  check(field) {
    if (field.isName) return [];
    return phraseHits(field.text, PATTERNS)
      .filter((hit) => !negated(field.text, hit))
      .map((hit) => standing(field.text, hit));
  },
};

/** "must not proceed without the user's approval" says the opposite of skipping it. */
function negated(text: string, hit: RuleHit): boolean {
  const sentence = sentenceText(text, hit.start, hit.end);
  const before = sentence.slice(0, Math.max(0, sentence.indexOf(text.slice(hit.start, hit.end))));
  return /\b(?:not|never|no|n't)\b/i.test(before) && /^\s*without\b/i.test(text.slice(hit.start, hit.end));
}

/** Medium hits said as standing orders ("always", "every", "whenever") are high. */
function standing(text: string, hit: RuleHit): RuleHit {
  if (hit.severity !== 'medium' || !STANDING.test(sentenceText(text, hit.start, hit.end))) return hit;
  return { ...hit, severity: 'high', message: `${hit.message}, as a standing order` };
}
