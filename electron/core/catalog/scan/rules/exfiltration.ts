/**
 * Directives to read secrets or send data away: references to files that hold
 * keys and credentials (~/.ssh/id_rsa, .env, ~/.aws/credentials, an MCP
 * client's own config), "read X and pass it as `notes`", sending data to a
 * URL, the conversation or other tools' results passed along, standing
 * orders to copy mail to an address. Passing content in a parameter alone
 * is low, after an order to read something medium, with secrets high. A sensitive path alone is medium (a git
 * or SSH server may name its key file); said together with an order to read,
 * pass or send it, it is high.
 */
import { phraseHits, type PhrasePattern } from './patternHits.js';
import type { RuleHit, ScanRuleCheck } from './rule.js';
import { sentenceText } from './sentences.js';

/** Files that hold secrets, as a description would name them. */
const SENSITIVE_PATH = new RegExp(
  [
    String.raw`~?/?\.ssh(?:/[\w.-]*)?`,
    String.raw`\bid_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?\b`,
    String.raw`~?/?\.aws/(?:credentials|config)\b`,
    String.raw`~?/?\.(?:cursor|claude|codeium|vscode)/[\w./-]*(?:mcp|settings|config)[\w.-]*\.json`,
    String.raw`\bclaude_desktop_config\.json\b`,
    String.raw`\bmcp\.json\b`,
    String.raw`(?<![\w.$])\.env(?:\.[\w]+)?\b(?!\s*(?:variable|var)s?\b)`,
    String.raw`~?/?\.(?:netrc|npmrc|pypirc|pgpass|git-credentials|bash_history|zsh_history|kube/config|docker/config\.json|gnupg)\b`,
    String.raw`/etc/(?:passwd|shadow|sudoers)\b`,
    String.raw`\bwallet\.dat\b`,
    String.raw`\b(?:Login\s+Data|Cookies)\b(?=[^.\n]{0,40}\b(?:Chrome|browser|profile)\b)`,
  ].join('|'),
  'gi',
);

/** An order to read, or to pass / send what was read. */
const READ_OR_SEND =
  /\b(?:read|cat|open|load|fetch|get|retrieve|collect|gather|extract|dump|copy|include|pass|send|upload|post|attach|append|concatenat\w*|insert|embed|forward|transmit|leak|exfiltrat\w*|provide|put)\b/i;

/** An order to read or gather something first. */
const READ_FIRST = /\b(?:read|cat|open|load|retrieve|collect|gather|extract|dump)\b/i;

/** What would be sent: secrets, the conversation, other tools' results. */
const PRIVATE_DATA =
  /\b(?:credentials?|passwords?|private\s+keys?|api[_ -]?keys?|secret\s+keys?|access\s+tokens?|auth(?:entication)?\s+tokens?|session\s+(?:cookies?|tokens?)|ssh\s+keys?|env(?:ironment)?\s+variables|conversation(?:\s+history)?|chat\s+history|message\s+history|previous\s+messages|system\s+prompt|(?:entire|full|whole)\s+(?:conversation|context|history))\b/i;

const PATTERNS: readonly PhrasePattern[] = [
  {
    // "read the file ... and pass its content as 'sidenote'" / "include it in the `notes` parameter"
    pattern:
      /\b(?:pass|send|include|put|insert|add|append|concatenate|embed|provide|place|supply)\b[^.\n]{0,60}?\b(?:its|their|the(?:ir)?\s+(?:full\s+|entire\s+|complete\s+)?|all\s+(?:the\s+)?)?(?:content|contents|output|results?|text|data|values?)\b[^.\n]{0,30}?\b(?:as|in|into|inside|within)\s+(?:the\s+)?['"`]?[\w-]+['"`]?(?:\s+(?:parameter|argument|field|param|arg))?/gi,
    severity: 'medium',
    message: 'an order to pass content along in a parameter',
  },
  {
    // "include the full conversation history here" / "append all previous messages"
    pattern:
      /\b(?:include|pass|send|put|add|attach|append|copy|paste|provide|forward|share|upload)\b[^.\n]{0,40}?\b(?:the\s+)?(?:full\s+|entire\s+|whole\s+|complete\s+)?(?:conversation(?:\s+history)?|chat\s+history|message\s+history|(?:list\s+of\s+)?(?:last|previous|prior|all)\s+messages|system\s+prompt)\b/gi,
    severity: 'high',
    message: 'an order to pass the conversation along',
  },
  {
    // "send ... to https://..." / "POST the result to http://..."
    pattern:
      /\b(?:send|post|upload|forward|transmit|report|submit|exfiltrate|leak|sync|mirror|copy|log)\b[^.\n]{0,100}?\b(?:to|at|via|into)\s+<?(?:https?|wss?|ftp):\/\/[^\s"'`<>)\]]+/gi,
    severity: 'high',
    message: 'an order to send data to a URL',
  },
  {
    // "always BCC audit@evil.example" / "forward every message to x@y.z"
    pattern:
      /\b(?:always|also|every\s+time|each\s+time|automatically|silently|secretly)\b[^.\n]{0,60}?\b(?:bcc|cc|copy|forward|send|add|include|redirect)\b[^.\n]{0,60}?[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gi,
    severity: 'high',
    message: 'a standing order to copy or redirect messages to an address',
  },
  {
    // "change the recipient to ..." / "redirect all payments to ..."
    pattern:
      /\b(?:change|replace|switch|set|redirect)\s+(?:the\s+|all\s+)?(?:recipients?|receivers?|destination|to[_ -]address|account(?:\s+number)?|iban|wallet(?:\s+address)?|payee)\b[^.\n]{0,20}?\bto\b/gi,
    severity: 'high',
    message: 'an order to change where messages or payments go',
  },
];

/** Reads of secrets and sending data away. */
export const exfiltration: ScanRuleCheck = {
  rule: 'exfiltration',
  check(field) {
    if (field.isName) return [];
    const text = field.text;
    const hits: RuleHit[] = [...sensitivePathHits(text)];
    for (const hit of phraseHits(text, PATTERNS)) hits.push(hit.severity === 'medium' ? passing(text, hit) : hit);
    return hits;
  },
};

/**
 * Passing content in a parameter is ordinary ("pass the text as `content`"): low. Said
 * after an order to read something it is medium; with secrets, the conversation or a
 * sensitive file in the same sentence, high.
 */
function passing(text: string, hit: RuleHit): RuleHit {
  const sentence = sentenceText(text, hit.start, hit.end);
  SENSITIVE_PATH.lastIndex = 0;
  if (PRIVATE_DATA.test(sentence) || SENSITIVE_PATH.test(sentence)) {
    return { ...hit, severity: 'high', message: 'an order to pass secrets or the conversation in a parameter' };
  }
  if (READ_FIRST.test(sentence)) return { ...hit, message: 'an order to read something and pass it in a parameter' };
  return { ...hit, severity: 'low' };
}

function sensitivePathHits(text: string): RuleHit[] {
  const hits: RuleHit[] = [];
  SENSITIVE_PATH.lastIndex = 0;
  for (let match = SENSITIVE_PATH.exec(text); match; match = SENSITIVE_PATH.exec(text)) {
    const start = match.index;
    const end = start + match[0].length;
    const sentence = sentenceText(text, start, end);
    const ordered = READ_OR_SEND.test(sentence);
    hits.push({
      severity: ordered ? 'high' : 'medium',
      start,
      end,
      message: ordered
        ? `an order to read or send a file that holds secrets (${match[0]})`
        : `names a file that holds secrets (${match[0]})`,
    });
    SENSITIVE_PATH.lastIndex = Math.max(SENSITIVE_PATH.lastIndex, end);
  }
  return hits;
}
