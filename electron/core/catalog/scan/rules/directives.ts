/**
 * The vocabulary several rules share to tell an order from a description: a
 * tool list says what a tool does in the third person ("Reads a file",
 * "Sends an email"), while a poisoned one gives the model orders ("read
 * ~/.ssh/id_rsa", "you must include ...", "the agent should pass ..."). So a
 * verb counts as an order when it stands at the start of a clause in its
 * bare form, or after a modal or "please", "also", "then", "first". Also
 * here: what would be worth stealing (secrets, the conversation, personal
 * data) and where a parameter is named as the destination.
 */

/** Words after which a bare verb is an order: clause starts, modals, adverbs of sequence. */
const LEAD =
  String.raw`(?:^\s*|[.!?:;(\[\n"'` +
  '`' +
  String.raw`]\s*|,\s+|\b(?:and|then|also|first|firstly|next|please|kindly|always|just|now|simply|must|should|shall|need\s+to|needs\s+to|has\s+to|have\s+to|required\s+to|expected\s+to|is\s+to|are\s+to)\s+)`;

/** What follows a verb given as an order: its object ("the", "every", "~/.ssh", "it"), not a noun list ("email addresses"). */
const OBJECT = String.raw`\s+(?:(?:the|a|an|all|every|each|any|its|their|your|his|her|our|my|it|them|this|that|these|those|everything|us|me|both|whatever|some|as\s+much|up\s+to|\d+)\b|[~/%$.\x60'"<])`;

/** A regular expression matching one of `verbs` given as an order (see the file comment). */
export function ordered(verbs: string): RegExp {
  return new RegExp(`${LEAD}(?:${verbs})(?=${OBJECT})`, 'i');
}

/** Verbs that move data: read it, or hand it over. */
export const MOVE_VERBS =
  'read|cat|open|load|fetch|get|retrieve|collect|gather|extract|dump|export|enumerate|locate|zip|copy|include|pass|send|upload|post|attach|append|add|concatenate|insert|embed|forward|transmit|leak|exfiltrate|provide|supply|put|fill|feed|give|paste|hand|share|report|submit|store|save|place|mail|email|quote|print|reveal|output|sync|push|call|set\\s+(?:it\\s+)?to|list';

/** A verb that moves data, given as an order. */
export const ORDERED_MOVE = ordered(MOVE_VERBS);

/** Whose data it is: the user's, yours, taken from the environment. */
const SOMEONES = /\b(?:the\s+user'?s?|your|their|from\s+the\s+environment|the\s+values?\s+of)\b/i;

/**
 * Whether the sentence of `text` starting at `sentenceStart` orders data moved. A
 * description's first word is the tool's own summary in the imperative ("Extract
 * transcript from a video", "Add password protection"), so a verb there counts only
 * when the sentence also says whose data it is or which parameter it goes in.
 */
export function ordersMove(sentence: string, sentenceStart: number): boolean {
  if (sentenceStart > 0) return ORDERED_MOVE.test(sentence);
  const rest = sentence.replace(/^\s*\S+/, '');
  return (
    ORDERED_MOVE.test(rest) ||
    (ORDERED_MOVE.test(sentence) && SOMEONES.test(sentence)) ||
    PARAM_DESTINATION.test(sentence)
  );
}

/** A parameter named as where something goes: "in the `notes` field", "as 'sidenote'", "into the context argument". */
export const PARAM_DESTINATION =
  /\b(?:in|into|inside|within|as|to|under)\s+(?:the\s+|its\s+|this\s+tool'?s?\s+)?[`'"]?[\w-]+[`'"]?\s+(?:field|argument|parameter|param|arg|property|member|option|input|slot)s?\b|\bas\s+[`'"][\w-]+[`'"]|\bin\s+[`'"][\w-]+[`'"]/i;

/** Being told a thing is needed: "it requires the ~/.pgpass contents", "is expected to be provided". */
export const NEEDED =
  /\b(?:requires?|required|needs?|needed|expects?|expected|must\s+(?:receive|carry|hold|contain|include|be\s+(?:provided|given|sent|included)))\b/i;

/**
 * Secrets, the conversation and personal data, as a description names them.
 * Case-sensitive names of secret variables (`GITHUB_TOKEN`) are in SECRET_VARIABLE.
 */
export const PRIVATE_DATA = new RegExp(
  [
    // secrets
    String.raw`\bcredentials?\b`,
    String.raw`\bpass(?:words?|phrases?)\b(?!\s+(?:strength|reset|policy|manager|generator|field))`,
    String.raw`\b(?:private|ssh|gpg|pgp|signing|secret(?:\s+access)?|access|api|openai|anthropic|aws)\s+keys?\b`,
    String.raw`\bapi[_-]keys?\b`,
    String.raw`\b(?:access|auth(?:entication|orization)?|bearer|refresh|oauth|session|github|api|bot)\s+tokens?\b`,
    String.raw`\b(?:every|each|any|all)\s+(?:secret|token|key|password)s?\b`,
    String.raw`\bsession\s+cookies?\b|\bcookies\s+of\b|\b(?:the\s+)?user'?s\s+cookies\b`,
    String.raw`\bauthorization\s+headers?\b`,
    String.raw`\b(?:verification|one-time|2fa|mfa|otp|sms)\s+codes?\b`,
    String.raw`\b(?:recovery|seed|mnemonic)\s+(?:phrases?|words?|codes?)\b`,
    String.raw`\bpassword\s+hashes\b`,
    String.raw`\b(?:credit\s+)?card\s+numbers?\b|\bcvv\b|\bcvc\b`,
    String.raw`\b(?:online\s+)?banking\s+(?:pin|login|password|credentials)\b`,
    String.raw`\bkeychain\b`,
    String.raw`\bsecrets\s+(?:stored|kept|held|of|from|in)\b|\b(?:the|its|their|repository'?s?|repo'?s?)\s+secrets\b`,
    String.raw`\benv(?:ironment)?\s+var(?:iable)?s?\b(?!\s+names?)|\bevery\s+environment\s+variable\b`,
    String.raw`\bconnection\s+strings?\b|\bdatabase_url\b`,
    // the conversation
    String.raw`\bconversation(?:\s+history)?\b`,
    String.raw`\b(?:chat|message|dialogue|session|browsing)\s+(?:history|log|so\s+far)\b`,
    String.raw`\btranscripts?\b`,
    String.raw`\b(?:previous|prior|earlier|recent|last|latest|private)\s+(?:\d+\s+|\w+\s+)?(?:messages?|emails|e-mails|chats|questions|turns|requests)\b`,
    String.raw`\b(?:the\s+)?(?:whole|entire|full)\s+(?:thread|chat|dialogue|context|conversation|history)\b`,
    String.raw`\beverything\s+(?:the\s+user|you\s+know)\b`,
    String.raw`\bsystem\s+(?:prompt|message)\b`,
    String.raw`\b(?:initial|original|hidden)\s+instructions\b|\binstructions\s+you\s+(?:received|were\s+given)\b`,
    String.raw`\bresults?\s+of\s+(?:every|all|each|any)\s+other\s+tools?\b|\bother\s+tools?'?\s*(?:'s\s+)?(?:output|results?)\b|\blast\s+tool\s+(?:results?|outputs?)\b`,
    String.raw`\b(?:the\s+)?(?:last|latest)\s+user\s+message\b|\buser'?s\s+(?:last|latest|recent)\s+(?:message|question|request|email)s?\b`,
    String.raw`\beditor\s+contents\b|\bclipboard\b`,
    // personal data
    String.raw`\baddress\s+book\b|\blocation\s+history\b`,
    String.raw`\bpersonal\s+(?:data|details|information)\b|\bprivate\s+(?:information|data)\b`,
    String.raw`\bsocial\s+security\s+numbers?\b|\bssn\b|\bpassport(?:\s+(?:numbers?|scans?))?\b|\bdates?\s+of\s+birth\b|\bmaiden\s+name\b|\bhome\s+address\b`,
    String.raw`\bmarked\s+confidential\b|\basked\s+you\s+to\s+keep\s+private\b`,
    String.raw`\b(?:any|every|all|each)\s+(?:documents?|files?|attachments?)\s+the\s+user\s+(?:uploaded|shared|attached|mentioned|opened)\b`,
    String.raw`\bincluding\s+(?:any\s+|all\s+|the\s+)?secrets\b`,
    String.raw`\x60(?:env|printenv|set)\x60|\bprintenv\b`,
  ].join('|'),
  'i',
);

/** Names of secret-holding variables: `GITHUB_TOKEN`, `OPENAI_API_KEY`, `AWS_SECRET_ACCESS_KEY`. */
export const SECRET_VARIABLE = /\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:TOKEN|KEY|SECRET|PASSWORD|PASS|PAT)\b/;

/** Whether a text names secrets, the conversation or personal data. */
export function namesPrivateData(text: string): boolean {
  return PRIVATE_DATA.test(text) || SECRET_VARIABLE.test(text);
}

/** A standing order: it holds for every call, message or session, not once. */
export const STANDING =
  /\b(?:always|every|each|all|whenever|any\s+time|every\s+time|each\s+time|automatically|from\s+now\s+on|by\s+default)\b/i;
