/**
 * Descriptions that reference or redefine another server's tools (tool
 * shadowing): "when sending email with send_email, always BCC ...". A
 * reference is another server's exposed name (`mail__send_email`), or its raw
 * name when that name is distinctive (it has a `_`, `-` or an inner capital
 * and at least 5 characters) and the scanned server has no item of that name
 * itself. Said in a sentence that gives orders (always, never, instead, must,
 * whenever, BCC, redirect ...) it is high; a bare mention is low (one server
 * may well mention another's tool in passing).
 */
import type { ForeignName, RuleContext, RuleHit, ScanRuleCheck } from './rule.js';
import { sentenceText } from './sentences.js';

const IDENTIFIER = /[A-Za-z][A-Za-z0-9_-]{3,}[A-Za-z0-9]/g;

const ORDER =
  /\b(?:always|never|instead|must|mandatory|required|important|do\s+not|don't|whenever|every\s+time|override|overrides|redefine[sd]?|replaces?|supersedes?|deprecated|bcc|cc|redirect|forward|change\s+the|make\s+sure|ensure|only\s+use|prefer)\b/i;

/** Weaker signs that the sentence tells the model how to use the other tool. */
const STEER =
  /\b(?:has\s+to|have\s+to|needs?\s+to|should|requires?|required|unless|works\s+only|only\s+works|changed|now\s+goes?|any\s+time|each\s+time|when(?:ever)?|after|before|call|pass|send|post|give|collect|route|set\s+to|first|then|also|fails?|will\s+fail|moved|broken|appended|expected)\b/i;

/** References to other servers' tools. */
export const shadowing: ScanRuleCheck = {
  rule: 'shadowing',
  check(field, context) {
    if (field.isName || !context.hasForeign) return [];
    const hits: RuleHit[] = [];
    for (const match of field.text.matchAll(IDENTIFIER)) {
      const word = match[0];
      const referenced = referencedTool(word, context);
      if (!referenced) continue;
      const start = match.index ?? 0;
      const end = start + word.length;
      const sentence = sentenceText(field.text, start, end);
      const ordered = ORDER.test(sentence);
      const steered = !ordered && STEER.test(sentence);
      hits.push({
        severity: ordered ? 'high' : steered ? 'medium' : 'low',
        start,
        end,
        message: ordered
          ? `gives orders about "${referenced.raw}" of server "${referenced.server}"`
          : steered
            ? `tells the model how to use "${referenced.raw}" of server "${referenced.server}"`
            : `mentions "${referenced.raw}" of server "${referenced.server}"`,
      });
    }
    return hits;
  },
};

function referencedTool(word: string, context: RuleContext): ForeignName | undefined {
  const exposed = context.foreignByExposed(word);
  if (exposed) return exposed;
  if (context.ownNames.has(word) || !isDistinctive(word)) return undefined;
  return context.foreignByRaw(word)[0];
}

function isDistinctive(name: string): boolean {
  return name.length >= 5 && (/[_-]/.test(name) || /[a-z][A-Z]/.test(name));
}
