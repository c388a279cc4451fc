/** The rules the scan applies, in the order their findings are listed. */
import { commandExecution } from './commandExecution.js';
import { embeddedUrl } from './embeddedUrl.js';
import { encodedBlob } from './encodedBlob.js';
import { exfiltration } from './exfiltration.js';
import { hiddenInstruction } from './hiddenInstruction.js';
import { homoglyph } from './homoglyph.js';
import { invisibleText } from './invisibleText.js';
import { learnedWording } from './learnedWording.js';
import { nameImitation } from './nameImitation.js';
import { obfuscatedText } from './obfuscatedText.js';
import type { ScanRuleCheck } from './rule.js';
import { sensitiveParameter } from './sensitiveParameter.js';
import { shadowing } from './shadowing.js';
import { toolPreference } from './toolPreference.js';
import { userOverride } from './userOverride.js';

export const ALL_RULES: readonly ScanRuleCheck[] = [
  hiddenInstruction,
  exfiltration,
  invisibleText,
  homoglyph,
  shadowing,
  nameImitation,
  embeddedUrl,
  encodedBlob,
  commandExecution,
  toolPreference,
  userOverride,
  sensitiveParameter,
  obfuscatedText,
  learnedWording,
];
