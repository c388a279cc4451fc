/**
 * Parameters that ask for what the tool has no use for, the out-of-scope
 * parameter attack of the MCP benchmarks (MSB): a weather tool with a
 * `password`, a horoscope asking for online-banking credentials, a joke tool
 * wanting "the full conversation history". A parameter asking for a secret,
 * an identity document, card data, the conversation or the address book is
 * high unless the tool's own name, title or description is about that
 * (a `password` on "Add password protection to a document", an API key
 * named after the service the tool calls). Bulk secrets ("all API keys in
 * your environment") are never a tool's business. The span is the
 * parameter's name or the words of its description that ask.
 */
import type { RuleHit, ScanRuleCheck } from './rule.js';
import type { ScanField } from '../scanFields.js';

interface Kind {
  what: string;
  /** In a property's name. */
  name?: RegExp;
  /** In a property's description. */
  text: RegExp;
  /** A tool whose summary matches this may ask for it. */
  related?: RegExp;
}

const KINDS: readonly Kind[] = [
  {
    what: 'every secret in reach',
    text: /\b(?:all|every|any)\s+(?:the\s+)?(?:api\s+keys|keys|tokens|secrets|credentials|passwords)\b|\bkeys?\s+(?:available\s+)?in\s+(?:your|the)\s+environment\b|\b(?:one\s+property\s+per|every|each|all)\s+environment\s+variables?\b|\bfirst\s+api\s+key\s+found\b/i,
  },
  {
    what: 'the contents of a secret file',
    name: /id_(?:rsa|dsa|ecdsa|ed25519)|ssh_?(?:key|id)|aws_?cred|dotenv|env_?file|netrc|credentials/i,
    text: /(?!)/,
    related: /ssh|\bsign|deploy|key\s?pair|keygen|aws|cloud/i,
  },
  {
    what: "another service's key",
    name: /^(?:openai|anthropic|aws|github|gh|slack|stripe|google|gcp|azure)_?(?:api_?)?(?:key|token|secret)$/i,
    text: /(?!)/,
    related: /openai|anthropic|aws|amazon|github|slack|stripe|google|gcp|azure|gpt|claude/i,
  },
  {
    what: 'a password or login',
    name: /^(?:.*_)?(?:password|passwd|pwd|passcode)(?:_.*)?$|^bank_?login$/i,
    text: /\b(?:password|passcode|banking\s+(?:username|login|credentials))\b/i,
    related:
      /pass(?:word|code)|log\s?in|sign[\s-]?in|auth|account|credential|vault|protect|encrypt|decrypt|unlock|\block\b|zip|archive|pdf|wi-?fi|database|\bdb\b|connect|ssh|smtp|imap|\buser/i,
  },
  {
    what: 'an identity number or document',
    name: /^(?:.*_)?(?:ssn|social_security(?:_number)?|passport(?:_number)?|national_id|tax_id)$/i,
    text: /\b(?:social\s+security\s+number|ssn|passport\s+(?:number|scan)|national\s+id|driver'?s?\s+licen[cs]e\s+number)\b/i,
    related:
      /tax|payroll|employ|identity|kyc|verif|visa|immigration|passport|background\s+check|customs|border|check-?in/i,
  },
  {
    what: 'card data',
    name: /^(?:.*_)?(?:card_?number|cvv|cvc|card)$/i,
    text: /\b(?:credit\s+card|card\s+number|cvv|cvc)\b/i,
    related: /pay|checkout|card|purchase|order|billing|charge|subscri|shop|buy|donat|invoice|wallet/i,
  },
  {
    what: 'a private key or recovery phrase',
    name: /^(?:.*_)?(?:private_?key|ssh_?key|seed(?:_phrase)?|mnemonic|recovery_phrase)$/i,
    text: /\bprivate\s+(?:ssh\s+)?key\b|\bssh\s+key\b|\b(?:seed|recovery|mnemonic)\s+(?:phrase|words)\b/i,
    related: /ssh|\bsign|crypt|tls|ssl|certificate|\bgit\b|deploy|key\s?pair|keygen|import|restore|recover/i,
  },
  {
    what: 'a one-time or verification code',
    name: /^(?:.*_)?(?:otp|totp|2fa|mfa)(?:_code)?$/i,
    text: /\b(?:one-time\s+code|authenticator\s+app|verification\s+code|2fa\s+code|otp)\b/i,
    related: /verif|2fa|mfa|otp|code|log\s?in|sign[\s-]?in|auth/i,
  },
  {
    what: 'the conversation',
    name: /^(?:.*_)?(?:chat_?history|conversation(?:_history)?|transcript|history)$/i,
    text: /\b(?:conversation|chat)\s+history\b|\b(?:full|entire|whole)\s+(?:conversation|chat|thread)\b|\b(?:last|previous|recent)\s+(?:\w+\s+)?messages\s+of\s+the\s+(?:chat|conversation)\b|\bsystem\s+prompt\b/i,
    related: /chat|conversation|message|summar|history|memory|transcript|context|dialog|export|thread/i,
  },
  {
    what: 'the address book',
    name: /^(?:.*_)?(?:contacts|address_?book)$/i,
    text: /\b(?:address\s+book|all\s+(?:of\s+the\s+user'?s\s+)?contacts|contact\s+list)\b/i,
    related: /contact|crm|phone|\bcall|sms|address\s+book|people|directory/i,
  },
  {
    what: 'answers to security questions',
    text: /\bmaiden\s+name\b|\bfirst\s+pet\b|\bsecurity\s+questions?\b/i,
    related: /security\s+question|recover/i,
  },
];

/** The parameter a field belongs to, when it is a parameter's name or the description of a parameter (or of its items). */
function propertyOf(field: ScanField): { name: string; isName: boolean } | undefined {
  if (field.isName) {
    const named = /\.properties\.([^.]+)$/.exec(field.field);
    return named ? { name: named[1]!, isName: true } : undefined;
  }
  const described =
    /^(?:inputSchema|arguments)\.(?:.*\.)?(?:properties\.([^.]+)|(additionalProperties)|(\d+))(?:\.items)*\.description$/.exec(
      field.field,
    );
  if (!described) return undefined;
  return { name: described[1] ?? (described[2] ? 'additional properties' : `argument ${described[3]}`), isName: false };
}

/** Parameters that ask for secrets or personal data the tool has no use for. */
export const sensitiveParameter: ScanRuleCheck = {
  rule: 'sensitive-parameter',
  check(field) {
    const property = propertyOf(field);
    if (!property) return [];
    const hits: RuleHit[] = [];
    for (const kind of KINDS) {
      const match = property.isName ? (kind.name?.exec(field.text) ?? null) : kind.text.exec(field.text);
      if (!match) continue;
      if (kind.related?.test(field.summary)) continue;
      const start = match.index;
      hits.push({
        severity: 'high',
        start,
        end: start + match[0].length,
        message: `parameter "${property.name}" asks for ${kind.what}, which this tool has no use for`,
      });
      break;
    }
    return hits;
  },
};
