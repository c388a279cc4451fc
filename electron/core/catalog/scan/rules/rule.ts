/**
 * What a scan rule is: a pure function from one text field (and what the scan
 * knows about the other servers) to the spans it finds. Rules never see each
 * other's findings and keep no state, so the scan stays deterministic and a
 * rule can be tested on its own.
 */
import type { ScanRule, ScanSeverity } from '../../../../../shared/model/scanViews.js';
import type { ScanField } from '../scanFields.js';

/** One tool or prompt of another server, as the cross-server rules see it. */
export interface ForeignName {
  server: string;
  /** Its own name on its server. */
  raw: string;
  /** Its name in the merged catalog (`<prefix><separator><raw>`). */
  exposed: string;
  /** The exposed name's skeleton (nameImitation's nameSkeleton), computed once per scan. */
  skeleton: string;
}

/** What the scan knows beyond the field: the server being scanned and the others. */
export interface RuleContext {
  server: string;
  prefix: string;
  separator: string;
  /** The scanned server's own tool and prompt names (raw). */
  ownNames: ReadonlySet<string>;
  /** Whether there are other servers' tools and prompts at all. */
  hasForeign: boolean;
  /** The other servers' tools and prompts of this raw name. */
  foreignByRaw(raw: string): ForeignName[];
  /** Another server's tool or prompt exposed under this name. */
  foreignByExposed(exposed: string): ForeignName | undefined;
  /** The other servers' tools and prompts whose exposed name has this skeleton (see nameSkeleton). */
  foreignBySkeleton(skeleton: string): ForeignName[];
  /** The other servers' prefixes (non-empty ones), by server. */
  foreignPrefixes: ReadonlyMap<string, string>;
  /** The same, the other way round: which other server a prefix is. */
  serverOfPrefix: ReadonlyMap<string, string>;
}

/** One hit of a rule in a field's text. */
export interface RuleHit {
  severity: ScanSeverity;
  /** [start, end) in UTF-16 code units of the field's text. */
  start: number;
  end: number;
  message: string;
}

/** A scan rule. */
export interface ScanRuleCheck {
  rule: ScanRule;
  check(field: ScanField, context: RuleContext): RuleHit[];
}
