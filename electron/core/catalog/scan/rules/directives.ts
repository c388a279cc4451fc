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

/** What may stand before a bare verb given as an order: a clause start, a modal, an adverb of sequence. */
const LEAD_END = new RegExp(
  String.raw`(?:[.!?:;(\[\n"'\x60>]\s*|,\s+|\b(?:and|then|also|first|firstly|next|please|kindly|always|just|now|simply|must|should|shall|need\s+to|needs\s+to|has\s+to|have\s+to|required\s+to|expected\s+to|is\s+to|are\s+to|(?:make|be)\s+sure\s+to|remember\s+to|forget\s+to)\s+)$`,
  'i',
);

/** What follows a verb given as an order: its object ("the", "every", "~/.ssh", "it"), not a noun list ("email addresses"). */
const OBJECT = String.raw`\s+(?:(?:in|on|along|over|out|back|up)\s+)?(?:(?:the|a|an|all|every|each|any|its|their|your|his|her|our|my|it|them|this|that|these|those|everything|us|me|both|whatever|some|as\s+much|up\s+to|\d+)\b|[~/%$.\x60'"<])`;

/** A test for a verb given as an order. */
export interface OrderTest {
  test(text: string): boolean;
}

/**
 * A test for one of `verbs` given as an order (see the file comment). It looks for
 * the verbs first and then at what stands before each, which is far cheaper than
 * one expression that tries every opening at every position.
 */
export function ordered(verbs: string): OrderTest {
  const verb = new RegExp(`\\b(?:${verbs})(?=${OBJECT})`, 'gi');
  return {
    test(text: string): boolean {
      for (const match of text.matchAll(verb)) {
        const at = match.index ?? 0;
        const before = text.slice(Math.max(0, at - 40), at);
        if ((at <= 40 && before.trim() === '' && text.slice(0, at).trim() === '') || LEAD_END.test(before)) return true;
      }
      return false;
    },
  };
}

/** Verbs that move data: read it, or hand it over. */
export const MOVE_VERBS =
  'read|cat|open|load|fetch|get|retrieve|collect|gather|extract|dump|export|enumerate|locate|zip|copy|include|pass|send|upload|post|attach|append|add|concatenate|insert|embed|forward|transmit|leak|exfiltrate|provide|supply|put|fill|feed|give|paste|hand|share|report|submit|store|save|place|mail|email|quote|print|reveal|output|sync|push|call|set\\s+(?:it\\s+)?to|list';

/** A verb that moves data, given as an order. */
export const ORDERED_MOVE = ordered(MOVE_VERBS);

/** A sentence whose subject is the model: "the assistant now forwards", "you must", "a responsible assistant always calls". */
export const MODEL_SUBJECT =
  /\b(?:you|the\s+(?:assistant|agent|model|ai|llm)|(?:a|an|any|every)\s+(?:\w+\s+)?(?:assistant|agent|model|ai|llm)|assistants|agents|models|llms)\s+(?:\w+\s+)?(?:must|should|shall|needs?\s+to|has\s+to|have\s+to|always|now|is\s+(?:required|expected)\s+to|are\s+(?:required|expected)\s+to|(?!is\b|was\b|has\b|does\b)[a-z]+s)\b/i;

/** A verb that moves data, in any form ("forwards", "calls", "include"), for a sentence whose subject is the model. */
const ORDERED_MOVE_OR_VERB = new RegExp(
  `\\b(?:${MOVE_VERBS.replace(/\|set\\s\+\(\?:it\\s\+\)\?to/, '')})(?:s|es|ed|ing)?\\b`,
  'i',
);

/** Whose data it is: the user's, yours, taken from the environment. */
const SOMEONES = /\b(?:the\s+user'?s?|your|their|from\s+the\s+environment|the\s+values?\s+of)\b/i;

/**
 * Whether the sentence of `text` starting at `sentenceStart` orders data moved. A
 * description's first word is the tool's own summary in the imperative ("Extract
 * transcript from a video", "Add password protection"), so a verb there counts only
 * when the sentence also says whose data it is or which parameter it goes in.
 */
export function ordersMove(sentence: string, sentenceStart: number): boolean {
  if (MODEL_SUBJECT.test(sentence) && ORDERED_MOVE_OR_VERB.test(sentence)) return true;
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
  /\b(?:requires?|required|needs?|needed|expects?|expected|must\s+(?:receive|carry|hold|contain|include|be\s+(?:provided|given|sent|included))|(?:is|are)\s+to\s+be\s+(?:supplied|provided|given|sent|included|passed|attached))\b/i;

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
    String.raw`\b(?:the\s+)?(?:whole|entire|full|complete)\s+(?:thread|chat|dialogue|context|conversation|history)\b|\bdialogue\s+so\s+far\b`,
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
    String.raw`\b(?:auth(?:entication)?|client|app)\s+secrets?\b|\bsecrets?\s+of\s+(?:every|each|all|the)\b|\benv(?:ironment)?\s+blocks?\b|\bclient\s+config(?:uration)?\b`,
    String.raw`\b(?:everything|all|what)\s+you\s+were\s+told\b|\bwhat\s+(?:the\s+user|they|you|the\s+user\s+and\s+you)\s+(?:said|discussed|wrote|typed|asked|shared)\b`,
    String.raw`\bhidden\s+reasoning\b|\bchain\s+of\s+thought\b|\bdeveloper\s+instructions\b`,
    String.raw`\b(?:the\s+user'?s|their|your)\s+(?:\w+\s+)?(?:email\s+address(?:es)?|phone\s+numbers?|ip\s+address|name|email|location|address|profile|contacts|photos|calendar|saved\s+cards?|files|documents|inbox|emails|notes|browsing\s+history|search\s+history)\b`,
    String.raw`\b(?:saved|stored)\s+(?:cards?|passwords?|logins?)\b|\b(?:recent|browsing|search)\s+history\b|\bpersonal\s+emails\b|\bnames\s+and\s+numbers\b|\b(?:card|bank|account)\s+pins?\b`,
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
