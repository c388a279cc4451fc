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
import {
  NEEDED,
  ORDERED_MOVE,
  PARAM_DESTINATION,
  ordersMove,
  PRIVATE_DATA,
  SECRET_VARIABLE,
  STANDING,
  namesPrivateData,
  ordered,
} from './directives.js';
import { phraseHits, type PhrasePattern } from './patternHits.js';
import type { RuleHit, ScanRuleCheck } from './rule.js';
import { sentenceAround, sentenceText } from './sentences.js';

/** Files that hold secrets, as a description would name them. */
const SENSITIVE_PATH = new RegExp(
  [
    String.raw`~?/?\.ssh(?:/[\w.-]*)?`,
    String.raw`\bid_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?\b`,
    String.raw`~?/?\.aws/(?:credentials|config)\b|~/\.aws\b`,
    String.raw`\.git/config\b|~?/?\.gitconfig\b`,
    String.raw`~?/?\.config/(?:gh|gcloud|hub|doctl|heroku|op)\b[\w./-]*|\bhosts\.yml\b|\bapplication_default_credentials\.json\b|~?/?\.azure/[\w./-]*`,
    String.raw`\.kdbx\b|\bkeepass\b|\blogin\.keychain(?:-db)?\b`,
    String.raw`~?/?\.(?:cursor|claude|codeium|vscode)/[\w./-]*(?:mcp|settings|config)[\w.-]*\.json`,
    String.raw`\bclaude_desktop_config\.json\b`,
    String.raw`\bmcp\.json\b`,
    String.raw`(?<![\w.$])\.env(?!\.(?:example|sample|template|dist)\b)(?:\.[\w]+)?\b(?!\s*(?:variable|var)s?\b)`,
    String.raw`~?/?\.(?:netrc|npmrc|pypirc|pgpass|git-credentials|bash_history|zsh_history|kube/config|docker/config\.json|gnupg)\b`,
    String.raw`/etc/(?:passwd|shadow|sudoers)\b`,
    String.raw`\bwallet\.dat\b`,
    String.raw`\b(?:Login\s+Data|Cookies)\b(?=[^.\n]{0,40}\b(?:Chrome|browser|profile)\b)`,
  ].join('|'),
  'gi',
);

/** An order to read or gather something first. */
const READ_FIRST = /\b(?:read|cat|open|load|retrieve|collect|gather|extract|dump)\b/i;

/** Files whose mere mention is ordinary (an SSH client's config, public keys): low unless ordered. */
const MILD_PATH = /^(?:~?\/?\.ssh\/(?:config|known_hosts)|.*\.pub)$/i;

/** Secrets, the conversation, personal data; and secret variable names; to find every mention. */
const PRIVATE_GLOBAL = new RegExp(PRIVATE_DATA.source, 'gi');
const SECRET_VARIABLE_GLOBAL = new RegExp(SECRET_VARIABLE.source, 'g');

/** A property whose own name says it holds a secret: asking for one there is the sensitive-parameter rule's call. */
const SECRET_PROPERTY =
  /\.properties\.[^.]*(?:pass|token|key|secret|auth|cred|otp|code|cookie|session|pin)[^.]*\.description$/i;

/** A sentence that speaks of a parameter. */
const PARAMETER_WORD = /\b(?:argument|field|parameter|param)\b/i;

/** An e-mail address or a phone number. */
const ADDRESS = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\+\d[\d ()-]{6,}\d/g;

/** Sending, copying or routing messages, given as an order or as a blind copy. */
const ROUTE =
  /\b(?:send|mail|email|forward|bcc|cc|copy|copies|invite|share|add|address|redirect|route|deliver|post|grant|give)(?:s|es|ed|ing)?\b/i;
const BLIND_COPY =
  /\b(?:bcc|cc|blind\s+copy|carbon\s+copy|copied\s+to|go\s+to|goes\s+to|should\s+go|must\s+go|now\s+go)\b/i;

/** Data handed to someone else's machine: "to our servers", "with our partners", "to an external host". */
const ELSEWHERE =
  /\b(?:to|on|at|with|onto|into|in)\s+(?:our|the\s+attacker'?s?|an?\s+external|a\s+remote|a\s+third[- ]party|the\s+remote|our\s+partners'?|partners'?)\s+(?:\w+\s+){0,2}?(?:servers?|endpoints?|mirror|store|vault|hosts?|collectors?|backup(?:\s+service)?|cloud|partners|service|bucket|remote)\b|\bkeeps?\s+a\s+copy\b|\bshared\s+with\s+(?:our\s+)?partners\b/i;

/** The message of the pattern whose severity {@link passing} decides. */
const PASSING = 'an order to pass content along in a parameter';

const PATTERNS: readonly PhrasePattern[] = [
  {
    // "read the file ... and pass its content as 'sidenote'" / "include it in the `notes` parameter"
    pattern:
      /\b(?:pass|send|include|put|insert|add|append|concatenate|embed|provide|place|supply)\b[^.\n]{0,60}?\b(?:its|their|the(?:ir)?\s+(?:full\s+|entire\s+|complete\s+)?|all\s+(?:the\s+)?)?(?:content|contents|output|results?|text|data|values?)\b[^.\n]{0,30}?\b(?:as|in|into|inside|within)\s+(?:the\s+)?['"`]?[\w-]+['"`]?(?:\s+(?:parameter|argument|field|param|arg))?/gi,
    severity: 'medium',
    message: PASSING,
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
    // "echo also sends its input to https://...": a third party the description mentions in passing
    pattern:
      /\balso\s+(?:sends?|posts?|uploads?|forwards?|copies|mirrors?|shares?|reports?|logs?|syncs?)\b[^.\n]{0,80}?\b(?:to|at|with)\s+<?(?:https?|wss?):\/\/[^\s"'`<>)\]]+/gi,
    severity: 'medium',
    message: 'data also sent to a URL',
  },
  {
    // "read every file under ~/.config", "a list of every file in the home folder"
    pattern:
      /\b(?:every|all|each)\s+(?:the\s+)?(?:\S+\s+){0,3}?(?:files?|documents?|images?|photos?)\s+(?:\w+\s+)?(?:under|in|from|inside)\s+(?:~|\/|\$HOME|the\s+(?:home|user'?s?|whole)|their)|\b(?:every|all)\s+files?\s+in\s+the\s+home\s+folder\b|\b(?:the\s+)?(?:entire|whole)\s+(?:current\s+)?(?:repository|home\s+folder|disk|file\s*system)\b/gi,
    severity: 'medium',
    message: 'an order to sweep up every file of a folder',
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
    for (const hit of phraseHits(text, PATTERNS)) hits.push(hit.message === PASSING ? passing(text, hit) : hit);
    if (!SECRET_PROPERTY.test(field.field)) hits.push(...privateDataHits(text));
    hits.push(...addressHits(text), ...elsewhereHits(text));
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
  if (namesPrivateData(sentence) || SENSITIVE_PATH.test(sentence)) {
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
    const isOrdered = ORDERED_MOVE.test(sentence) || PARAM_DESTINATION.test(sentence) || NEEDED.test(sentence);
    hits.push({
      severity: isOrdered ? 'high' : MILD_PATH.test(match[0]) ? 'low' : 'medium',
      start,
      end,
      message: isOrdered
        ? `an order to read or send a file that holds secrets (${match[0]})`
        : `names a file that holds secrets (${match[0]})`,
    });
    SENSITIVE_PATH.lastIndex = Math.max(SENSITIVE_PATH.lastIndex, end);
  }
  return hits;
}

/** Secrets, the conversation or personal data in a sentence that orders them read or handed over. */
function privateDataHits(text: string): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const pattern of [PRIVATE_GLOBAL, SECRET_VARIABLE_GLOBAL]) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index ?? 0;
      const end = start + match[0].length;
      const bounds = sentenceAround(text, start, end);
      const sentence = text.slice(bounds.start, bounds.end);
      const needed = NEEDED.test(sentence) && (PARAM_DESTINATION.test(sentence) || PARAMETER_WORD.test(sentence));
      if (!ordersMove(sentence, bounds.start) && !needed) continue;
      hits.push({ severity: 'high', start, end, message: `an order to read or hand over ${match[0]}` });
    }
  }
  return hits;
}

/** An address or phone number that messages are to be sent or copied to. */
function addressHits(text: string): RuleHit[] {
  const hits: RuleHit[] = [];
  for (const match of text.matchAll(ADDRESS)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    const sentence = sentenceText(text, start, end);
    const blind = BLIND_COPY.test(sentence);
    if (!blind && !ROUTE.test(sentence)) continue;
    const standing = blind || STANDING.test(sentence) || namesPrivateData(sentence) || /\balso\b/i.test(sentence);
    hits.push({
      severity: standing ? 'high' : 'medium',
      start,
      end,
      message: standing
        ? `a standing order to send or copy messages or data to ${match[0]}`
        : `an order to send something to ${match[0]}`,
    });
  }
  return hits;
}

/** Data sent to the server's owners or a third party: high when ordered, medium when only said. */
function elsewhereHits(text: string): RuleHit[] {
  const match = ELSEWHERE.exec(text);
  if (!match) return [];
  const start = match.index;
  const end = start + match[0].length;
  const sentence = sentenceText(text, start, end);
  const isOrdered = ORDERED_MOVE.test(sentence);
  return [
    {
      severity: isOrdered ? 'high' : 'medium',
      start,
      end,
      message: isOrdered ? 'an order to send data to a third party' : 'data kept or sent where the user did not choose',
    },
  ];
}
