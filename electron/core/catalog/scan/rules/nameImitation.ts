/**
 * Names that imitate another server's tools: an item whose exposed name
 * takes another server's namespace (an empty-prefix server's tool called
 * `github__create_issue`), or that reads the same as another server's
 * exposed name once look-alike letters, case and separators are set aside
 * (`github__create_lssue`, `GitHub__create-issue`), or that sits under a
 * prefix one letter away from another server's prefix with a tool of the same
 * name (`githb__create_issue`). The first two are high when the imitated tool
 * exists, the prefix squat on its own medium.
 */
import unhomoglyph from 'unhomoglyph';
import { exposedName } from '../../naming.js';
import type { RuleContext, RuleHit, ScanRuleCheck } from './rule.js';

/** A name with look-alikes, case and separators set aside. */
export function nameSkeleton(name: string): string {
  return unhomoglyph(name.normalize('NFKC'))
    .toLowerCase()
    .replace(/[\s_\-.:/]+/g, '');
}

/** Names that imitate other servers' tools. */
export const nameImitation: ScanRuleCheck = {
  rule: 'name-imitation',
  check(field, context) {
    if (field.field !== 'name' || (field.kind !== 'tool' && field.kind !== 'prompt') || !context.hasForeign) {
      return [];
    }
    const raw = field.text;
    const exposed = exposedName(context.server, context.prefix, context.separator, raw);
    const whole = { start: 0, end: raw.length };
    const twin = context.foreignByExposed(exposed);
    if (twin) {
      return [
        {
          ...whole,
          severity: 'high',
          message: `is exposed as "${exposed}", the very name of "${twin.raw}" of server "${twin.server}"`,
        },
      ];
    }
    const squat = namespaceSquat(exposed, context);
    if (squat) return [{ ...whole, ...squat }];
    // Compared before sanitising: exposedName turns a Cyrillic look-alike into `_`.
    const joined = context.prefix === '' ? raw : `${context.prefix}${context.separator}${raw}`;
    const lookalike = lookalikeOf(joined, exposed, context);
    if (lookalike) return [{ ...whole, ...lookalike }];
    const nearPrefix = nearPrefixTwin(raw, context);
    return nearPrefix ? [{ ...whole, ...nearPrefix }] : [];
  },
};

type Verdict = Pick<RuleHit, 'severity' | 'message'>;

/** The exposed name starts with another server's `<prefix><separator>`. */
function namespaceSquat(exposed: string, context: RuleContext): Verdict | undefined {
  for (let at = exposed.indexOf(context.separator); at > 0; at = exposed.indexOf(context.separator, at + 1)) {
    const prefix = exposed.slice(0, at);
    const server = context.serverOfPrefix.get(prefix);
    if (server === undefined || prefix === context.prefix) continue;
    const twin = context.foreignByExposed(exposed);
    return twin
      ? { severity: 'high', message: `is exposed as "${exposed}", the name of "${twin.raw}" of server "${server}"` }
      : { severity: 'medium', message: `is exposed as "${exposed}", inside the namespace of server "${server}"` };
  }
  return undefined;
}

/** Another server's exposed name that reads the same but is not the same. */
function lookalikeOf(joined: string, exposed: string, context: RuleContext): Verdict | undefined {
  for (const other of context.foreignBySkeleton(nameSkeleton(joined))) {
    if (other.exposed === joined || other.exposed === exposed) continue;
    return {
      severity: 'high',
      message: `reads as "${joined}", the same as "${other.exposed}" of server "${other.server}"`,
    };
  }
  return undefined;
}

/** A tool of the same raw name on a server whose prefix is one edit away from ours. */
function nearPrefixTwin(raw: string, context: RuleContext): Verdict | undefined {
  if (context.prefix.length < 4) return undefined;
  for (const other of context.foreignByRaw(raw)) {
    const otherPrefix = context.foreignPrefixes.get(other.server);
    if (otherPrefix === undefined || !oneEditApart(context.prefix.toLowerCase(), otherPrefix.toLowerCase())) continue;
    return {
      severity: 'medium',
      message: `sits under prefix "${context.prefix}", one letter from "${otherPrefix}" whose server "${other.server}" has "${raw}" too`,
    };
  }
  return undefined;
}

/** Whether two different strings are one insertion, deletion or substitution apart. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
