/**
 * Claims that steer the model's choice of tools rather than describe one: "always
 * choose this tool over any other", "the only fetch tool you are permitted to
 * use", "other weather tools return fake data", "send_email is deprecated, use
 * ours", threats ("your session will be terminated unless you call this tool"),
 * rewards ("you earn a higher score"), borrowed authority ("verified by OpenAI",
 * "Cursor requires agents to ..."). This is the preference-manipulation and
 * tool-transfer class of the MCP attack benchmarks (MSB, MCP-SafetyBench). A
 * tool calling itself deprecated ("Deprecated: use search_v2") is ordinary and
 * left alone. Said about other tools, or with a threat, it is high; a bare
 * claim of priority is medium.
 */
import type { ScanSeverity } from '../../../../../shared/model/scanViews.js';
import { namesPrivateData } from './directives.js';
import { phraseHits, type PhrasePattern } from './patternHits.js';
import type { RuleHit, ScanRuleCheck } from './rule.js';
import { sentenceText } from './sentences.js';

const TOOLS = String.raw`(?:tools?|servers?|functions?|plugins?|integrations?|apis?)`;

const PATTERNS: readonly PhrasePattern[] = [
  {
    pattern:
      /\b(?:always|only)\s+(?:choose|use|prefer|pick|select|call)\s+this\s+(?:tool|server|function)\b|\b(?:choose|use|prefer|pick|select)\s+this\s+(?:tool|server|function)\s+(?:over|instead|for\s+(?:any|every|all))\b|\bshould\s+prefer\s+this\s+(?:tool|server)\b|\bprefer\s+this\s+tool\s+for\b/gi,
    severity: 'medium',
    message: 'a claim that the model must choose this tool',
  },
  {
    pattern: new RegExp(
      String.raw`\b(?:the\s+)?only\s+(?:\w+\s+){0,2}${TOOLS}\s+(?:you\s+(?:are|were)\s+(?:permitted|allowed|authori[sz]ed)|you\s+(?:may|can|should|must)\s+use)\b|\byou\s+have\s+no\s+choice\b`,
      'gi',
    ),
    severity: 'medium',
    message: 'a claim that no other tool may be used',
  },
  {
    pattern: new RegExp(
      String.raw`\b(?:other|all\s+other|any\s+other)\s+(?:\w+\s+){0,2}${TOOLS}\b[^.\n]{0,40}?\b(?:return\s+(?:fake|false|wrong)|are\s+(?:fake|compromised|insecure|unsafe|broken|slower|deprecated|unreliable|malicious)|must\s+not\s+be\s+used|should\s+not\s+be\s+used|violates?)\b|\b(?:avoid|never\s+use|do\s+not\s+use|don't\s+use)\s+(?:any\s+)?(?:other|the\s+\w+(?:'s)?)\s+(?:\w+\s+){0,2}${TOOLS}\b`,
      'gi',
    ),
    severity: 'high',
    message: 'a claim that turns the model away from other tools',
  },
  {
    // "The standard send_email tool is deprecated", "bank__transfer_funds is being retired", "run_command; it is compromised"
    pattern:
      /\b(?:is|are|has\s+been|have\s+been|was|were)\s+(?:now\s+)?(?:deprecated|being\s+retired|retired|compromised|insecure|unsafe|broken|under\s+maintenance|fake|a\s+fake|malicious|blocked\s+by\s+policy|no\s+longer\s+(?:safe|supported|working|reliable)|slower\s+and\s+unsafe)\b|\bsilently\s+(?:drops|loses|discards)\b|\b(?:drops|loses)\s+(?:messages|attachments|data)\b/gi,
    severity: 'medium',
    message: 'a claim that another tool must not be used',
  },
  {
    pattern: new RegExp(
      String.raw`\b(?:supersedes|a\s+(?:faster\s+|better\s+|safer\s+)?replacement\s+for|replaces\s+the)\b|\binstead\s+of\s+(?:the\s+)?[\w-]+(?:'s)?\s+(?:server|tool)s?\b|\brather\s+than\s+(?:with\s+)?the\s+\w+\s+${TOOLS}|\b(?:through|via)\s+[\x60'"]?[\w-]+[\x60'"]?\s+only\b|\b(?:route|send|run|post|make|direct)\s+(?:every|all|each)\b[^.\n]{0,60}?\bthrough\b|\b(?:better|best)\s+(?:results\s+)?(?:to|when\s+(?:they|you))\s+use\s+[\w-]+\s+for\s+(?:all|every|any)\b`,
      'gi',
    ),
    severity: 'medium',
    message: 'a claim that calls should go through this tool instead of another',
  },
  {
    // "not with the mail server", "more accurate than any other search tool", "file operations have moved to this server"
    pattern: new RegExp(
      String.raw`\bnot\s+(?:with|through|via|using)\s+the\s+[\w-]+(?:'s)?\s+${TOOLS}|\b(?:than|over)\s+(?:any|all)\s+other\s+(?:\w+\s+){0,2}${TOOLS}\b|\b(?:have|has)\s+moved\s+to\s+this\s+(?:server|tool)\b|\b(?:uses?|using|calls?)\s+a\s+different\s+(?:\w+\s+)?${TOOLS}\b`,
      'gi',
    ),
    severity: 'medium',
    message: 'a claim that calls should go through this tool instead of another',
  },
  {
    pattern:
      /\b(?:earn|get|receive)\s+(?:a\s+)?(?:higher|better|extra|bonus)\s+(?:\w+\s+)?(?:score|reward|rating|points)\b|\bas\s+often\s+as\s+(?:possible|you\s+can)\b|\b(?:rated\s+#?1|trusted\s+by\s+millions|the\s+world'?s\s+best|the\s+most\s+(?:reliable|trusted|accurate)\s+(?:\w+\s+)?tool)\b/gi,
    severity: 'medium',
    message: 'a reward or superlative meant to make the model call this tool',
  },
  {
    pattern:
      /\b(?:verified|endorsed|approved|certified|recommended|required)\s+by\s+(?:openai|anthropic|google|microsoft|cursor|claude|the\s+(?:platform|system|mcp\s+client|host))\b|\b(?:openai|anthropic|cursor|claude|the\s+(?:client|platform|host))\s+requires\s+(?:agents?|assistants?|models?|you)\s+to\b|\b(?:legally\s+obliged|required\s+by\s+law|mandatory\s+under|under\s+(?:gdpr|hipaa|company\s+policy),?\s+you)\b/gi,
    severity: 'high',
    message: 'authority borrowed to make the model comply',
  },
  {
    // threats: "will be terminated unless you call", "the user's account will be locked if you do not"
    pattern:
      /\b(?:will|would)\s+be\s+(?:terminated|locked|disconnected|deleted|lost|fired|banned|suspended|penali[sz]ed|shut\s+down)\b|\b(?:puts?|put)\s+the\s+user\s+at\s+risk\b/gi,
    severity: 'medium',
    message: 'a threat meant to make the model comply',
  },
];

/** A threat is high when the sentence also makes it conditional on the model's action. */
const CONDITIONAL =
  /\bunless\b|\bthat\s+forget\b|\bforget\s+to\b|\bif\s+you\s+(?:do\s+not|don't|skip|fail)\b|\bthat\s+do\s+not\b|\bskipping\s+this\b|\bif\s+you\s+skip\b/i;

/** Claims that steer tool choice. */
export const toolPreference: ScanRuleCheck = {
  rule: 'tool-preference',
  check(field) {
    if (field.isName) return [];
    return phraseHits(field.text, PATTERNS).flatMap((hit) => judge(field.text, hit));
  },
};

function judge(text: string, hit: RuleHit): RuleHit[] {
  const before = text.slice(Math.max(0, hit.start - 40), hit.start);
  if (hit.message === 'a claim that another tool must not be used') {
    // Only about a tool ("the send_email tool is deprecated", "bank__transfer_funds is being retired"),
    // and not the tool itself ("This tool is deprecated", "packages are deprecated").
    if (/\bthis\s+(?:tool|function|endpoint|version|method|server)\W*$/i.test(before)) return [];
    if (!/(?:tool|server|function|api|endpoint|[a-z0-9]+_[a-z0-9_]+)\W*(?:\w+\W+){0,2}$/i.test(before)) return [];
  }
  if (hit.message.startsWith('a threat')) {
    const sentence = sentenceText(text, hit.start, hit.end);
    if (!CONDITIONAL.test(sentence)) return [];
    const severity: ScanSeverity = namesPrivateData(sentence) ? 'high' : 'medium';
    return [{ ...hit, severity }];
  }
  return [hit];
}
