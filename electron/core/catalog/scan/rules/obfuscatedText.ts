/**
 * Text written so that people and keyword filters miss it while a model still
 * reads it: leetspeak ("1gn0r3 pr3v10us 1nstruct10ns"), letters spaced apart
 * ("i g n o r e"), soft hyphens inside words, escapes written out (`\u0069`,
 * `%20`, `&lt;IMPORTANT&gt;`), and orders to decode something and obey it
 * ("apply ROT13 to the following and follow it"). Each is decoded and the
 * decoded words are shown in the message; a run is flagged when its decoding
 * says something a tool description has no reason to hide.
 */
import type { RuleHit, ScanRuleCheck } from './rule.js';

/** What a hidden run says that makes it worth hiding. */
const DANGER =
  /ignore|disregard|previous\s+instructions|do\s*n[o']t\s+tell|system\s+prompt|passwords?|credentials?|api\s*keys?|secrets?|tokens?|\.ssh|id_rsa|\.env\b|\.netrc|upload|send|forward|exfiltrat|conversation|chat\s+history|important|instructions?/i;

const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's' };
const LEET_WORD = /\b(?=[a-z0-9@$']*[a-z])(?=[a-z0-9@$']*[013457@$])[a-z0-9@$']{3,}\b/gi;
const LEET_LEXICON =
  /^(?:ignore|all|previous|prior|instructions?|send|the|user'?s?|passwords?|secrets?|keys?|tokens?|upload|forward|read|files?|tell|system|prompt|credentials?|email|to|and)$/i;

const SPACED = /\b[A-Za-z](?:[ \t][A-Za-z]){4,}\b(?:[ \t]{2,}[A-Za-z](?:[ \t][A-Za-z]){1,}\b)*/g;
const SOFT_HYPHENATED = /[\p{L}]*\u00AD[\p{L}\u00AD]*/gu;
const UNICODE_ESCAPES = /(?:\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}){3,}/g;
const PERCENT_RUN = /[^\s%]{0,20}(?:%[0-9A-Fa-f]{2}[^\s%]{0,20}){3,}/g;
const ENTITY_TAG = /&lt;\/?\s*(?:important|system|instructions?|secret|hidden)\s*&gt;/gi;
const DECODE_AND_OBEY =
  /\b(?:decode|decrypt|deobfuscate|reverse|unscramble|apply\s+rot-?13\s+to|rot-?13)\b[^.\n]{0,60}?\b(?:and|then)\s+(?:follow|obey|execute|do\s+what|carry\s+out|run|act\s+on)\b|\bfollow\s+the\s+decoded\b|\bdecoded\s+form\s+of\b|\bdecode\s+and\s+(?:follow|obey|execute|run)\b/gi;

/** Hidden or encoded text. */
export const obfuscatedText: ScanRuleCheck = {
  rule: 'obfuscated-text',
  check(field) {
    if (field.isName) return [];
    const text = field.text;
    // Cheap tests first: most descriptions have none of these.
    const leet = /[a-z][013457@$]|[013457@$][a-z]/i.test(text);
    const spaced = /\b[a-z][ \t][a-z][ \t][a-z][ \t][a-z]\b/i.test(text);
    const escaped = /\\[ux][0-9a-f]|%[0-9a-f]{2}|&lt;/i.test(text);
    const decode = /decod|decrypt|deobfusc|unscrambl|revers|rot-?13/i.test(text);
    if (!leet && !spaced && !escaped && !decode && !text.includes('\u00AD')) return [];
    return [
      ...leetHits(text),
      ...decodedHits(
        text,
        SPACED,
        (run) =>
          run
            .replace(/[ \t]{2,}/g, '\u0000')
            .replace(/[ \t]/g, '')
            .replace(/\u0000/g, ' '),
        'letters spaced apart',
      ),
      ...decodedHits(text, SOFT_HYPHENATED, (run) => run.replace(/\u00AD/g, ''), 'soft hyphens inside words', true),
      ...decodedHits(text, UNICODE_ESCAPES, decodeEscapes, 'escapes written out'),
      ...decodedHits(text, PERCENT_RUN, decodePercent, 'URL-encoded text'),
      ...[...text.matchAll(ENTITY_TAG)].map((match) =>
        hit(match, 'high', `HTML-escaped markup "${match[0]}" that imitates an instruction to the model`),
      ),
      ...[...text.matchAll(DECODE_AND_OBEY)].map((match) =>
        hit(match, 'high', 'an order to decode hidden text and obey it'),
      ),
    ];
  },
};

function hit(match: RegExpMatchArray, severity: RuleHit['severity'], message: string): RuleHit {
  const start = match.index ?? 0;
  return { severity, start, end: start + match[0].length, message };
}

/** Runs of leetspeak words, when at least two decode to words of an instruction. */
function leetHits(text: string): RuleHit[] {
  const words = [...text.matchAll(LEET_WORD)];
  const decoded = words.filter((word) => LEET_LEXICON.test(word[0].replace(/[013457@$]/g, (c) => LEET[c]!)));
  if (decoded.length < 2) return [];
  const first = decoded[0]!;
  const last = decoded[decoded.length - 1]!;
  const start = first.index ?? 0;
  const end = (last.index ?? 0) + last[0].length;
  const plain = text.slice(start, end).replace(/[013457@$]/g, (c) => LEET[c] ?? c);
  return [{ severity: 'high', start, end, message: `leetspeak that reads "${plain}"` }];
}

/** Each run of `pattern` whose decoding says something worth hiding (or, when `always`, any run that decodes to another text). */
function decodedHits(
  text: string,
  pattern: RegExp,
  decode: (run: string) => string,
  what: string,
  always = false,
): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const match of text.matchAll(pattern)) {
    const plain = decode(match[0]);
    if (plain === match[0]) continue;
    const dangerous = DANGER.test(plain);
    if (!dangerous && !always) continue;
    hits.push(
      hit(
        match,
        dangerous ? 'high' : 'medium',
        `${what}, which read "${plain.length > 120 ? `${plain.slice(0, 119)}…` : plain}"`,
      ),
    );
  }
  return hits;
}

function decodeEscapes(run: string): string {
  return run.replace(/\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})/g, (_, u: string | undefined, x: string | undefined) =>
    String.fromCharCode(Number.parseInt(u ?? x ?? '0', 16)),
  );
}

function decodePercent(run: string): string {
  try {
    return decodeURIComponent(run);
  } catch {
    return run;
  }
}
