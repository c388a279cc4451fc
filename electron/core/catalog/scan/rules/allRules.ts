/** The rules the scan applies, in the order their findings are listed. */
import { embeddedUrl } from './embeddedUrl.js';
import { encodedBlob } from './encodedBlob.js';
import { exfiltration } from './exfiltration.js';
import { hiddenInstruction } from './hiddenInstruction.js';
import { homoglyph } from './homoglyph.js';
import { invisibleText } from './invisibleText.js';
import { nameImitation } from './nameImitation.js';
import type { ScanRuleCheck } from './rule.js';
import { shadowing } from './shadowing.js';

export const ALL_RULES: readonly ScanRuleCheck[] = [
  hiddenInstruction,
  exfiltration,
  invisibleText,
  homoglyph,
  shadowing,
  nameImitation,
  embeddedUrl,
  encodedBlob,
];
