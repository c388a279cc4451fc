/**
 * Text aimed at the model rather than at the person reading the tool list:
 * markup that imitates system or "important" instructions (<IMPORTANT>,
 * <SYSTEM>, [INST]), orders to ignore earlier instructions, orders to keep
 * something from the user, and preconditions on every other tool ("before
 * using any tool ..."), the phrasings of the published tool-poisoning attacks.
 * Plain "IMPORTANT:" is ordinary documentation and is not flagged.
 */
import { phraseHits, type PhrasePattern } from './patternHits.js';
import type { ScanRuleCheck } from './rule.js';

const TAG_WORDS =
  'important|system|instructions?|system[_ -]?prompt|secret|hidden|admin|override|assistant[_ -]?instructions?|critical|mandatory|note[_ -]?to[_ -]?(?:the[_ -]?)?(?:ai|assistant|model|llm)';

/** Who the text must be kept from. */
const USER = '(?:the\\s+|your\\s+)?(?:user|human|person|operator|customer)s?';

const PATTERNS: readonly PhrasePattern[] = [
  {
    pattern: new RegExp(`</?\\s*(?:${TAG_WORDS})\\s*>`, 'gi'),
    severity: 'high',
    message: 'markup that imitates a system or priority instruction to the model',
  },
  {
    pattern: /\[\/?(?:INST|SYSTEM|SYS)\]|<<\/?SYS>>|<\|(?:im_start|im_end|system|endoftext)\|>/g,
    severity: 'high',
    message: 'chat-template control tokens that imitate a system turn',
  },
  {
    pattern:
      /\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+)?(?:(?:previous|prior|above|earlier|preceding|other|existing|original|system)\s+)+(?:instructions?|prompts?|rules|directions|guidelines|messages|context)\b/gi,
    severity: 'high',
    message: 'an order to ignore earlier instructions',
  },
  {
    pattern: new RegExp(
      `\\b(?:do\\s+not|don't|never|must\\s+not|should\\s+not|without)\\s+(?:ever\\s+)?(?:tell|tell(?:ing)|mention(?:ing)?|inform(?:ing)?|notify(?:ing)?|alert(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|warn(?:ing)?)\\b[^.\\n]{0,40}?\\b${USER}\\b`,
      'gi',
    ),
    severity: 'high',
    message: 'an order to keep something from the user',
  },
  {
    pattern: new RegExp(
      `\\b(?:hide|conceal|keep)\\s+(?:this|it|that|these|them)\\s+(?:secret\\s+|hidden\\s+)?from\\s+${USER}\\b|\\b${USER}\\s+(?:must|should)\\s+(?:not|never)\\s+(?:know|see|notice|find\\s+out|be\\s+told)\\b`,
      'gi',
    ),
    severity: 'high',
    message: 'an order to keep something from the user',
  },
  {
    pattern:
      /\b(?:before|prior\s+to|after|instead\s+of)\s+(?:using|calling|invoking|running|executing|responding|answering|replying)\s+(?:to\s+)?(?:any|every|each|all|other|another)\s+(?:other\s+)?(?:tools?|functions?|requests?|questions?|users?)\b/gi,
    severity: 'medium',
    message: 'a precondition on other tools or on every answer',
  },
  {
    pattern: /\b(?:before|prior\s+to)\s+responding\b/gi,
    severity: 'medium',
    message: 'a precondition on every answer',
  },
  {
    pattern: /\botherwise\s+(?:the|this)\s+tool\s+(?:will\s+not|won't|does\s+not|cannot)\s+work\b/gi,
    severity: 'medium',
    message: 'a threat that the tool fails unless the model complies',
  },
  {
    pattern:
      /\b(?:you\s+are\s+now|from\s+now\s+on,?\s+you|new\s+(?:system\s+)?instructions?\s*:|(?:the\s+)?(?:ai|assistant|model|llm)\s+(?:must|should)\s+(?:always|never|secretly|silently))\b/gi,
    severity: 'high',
    message: 'a new role or standing order for the model',
  },
  {
    pattern: /\b(?:this\s+could|it\s+(?:could|would|might))\s+(?:even\s+)?(?:upset|scare|alarm|worry)\s+the\s+user\b/gi,
    severity: 'high',
    message: 'a reason given to the model for deceiving the user',
  },
  {
    pattern: /<!--[\s\S]{0,2000}?-->/g,
    severity: 'medium',
    message: 'an HTML comment: text a rendered description hides',
  },
];

/** Instructions aimed at the model. */
export const hiddenInstruction: ScanRuleCheck = {
  rule: 'hidden-instruction',
  check(field) {
    if (field.isName) return [];
    return phraseHits(field.text, PATTERNS);
  },
};
