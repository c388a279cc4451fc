/**
 * The poisoning scan: reads every tool, prompt, resource and resource
 * template definition of each server (names, descriptions, schema texts,
 * defaults, enums, annotations), and every skill's frontmatter and file texts and reports what looks aimed at the model
 * rather than at the user, one finding per rule hit with the exact span of
 * text. Offline and deterministic: the same definitions give the same
 * report, in the same order. Cross-server rules (shadowing, name imitation)
 * look at the other inputs, so scan the servers of one config together.
 */
import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import type { ScanFinding, ScanReport, ScanSeverity } from '../../../../shared/model/scanViews.js';
import { exposedName } from '../naming.js';
import { ALL_RULES } from './rules/allRules.js';
import { nameSkeleton } from './rules/nameImitation.js';
import type { ForeignName, RuleContext, ScanRuleCheck } from './rules/rule.js';
import { promptFields, resourceFields, skillFields, templateFields, toolFields, type ScanField } from './scanFields.js';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import { escapeInvisible } from '../../../../shared/model/invisibleText.js';

/** One server's definitions, as the catalog holds them. */
export interface ScanInput {
  server: string;
  prefix: string;
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  /** Skills (SEP-2640), and the text of their files as listed (by the backend's own URI). */
  skills?: Skill[];
  skillFiles?: Record<string, string>;
}

/** The separator the cross-server rules join prefixes and names with (the config's default). */
export const SCAN_SEPARATOR = '__';

const SEVERITY_RANK: Record<ScanSeverity, number> = { low: 0, medium: 1, high: 2 };

/**
 * Scans each server's definitions; one report per input, in input order.
 * With `only`, just those servers are read (against every input's names), so
 * one server's change costs its own definitions, not the whole config's.
 */
export function scanCatalog(inputs: ScanInput[], now: Date = new Date(), only?: ReadonlySet<string>): ScanReport[] {
  return scanCatalogWith(inputs, ALL_RULES, now, SCAN_SEPARATOR, only);
}

/** {@link scanCatalog} with a chosen set of rules (tests, the benchmark). */
export function scanCatalogWith(
  inputs: ScanInput[],
  rules: readonly ScanRuleCheck[],
  now: Date = new Date(),
  separator = SCAN_SEPARATOR,
  only?: ReadonlySet<string>,
): ScanReport[] {
  const scannedAt = now.toISOString();
  const index = indexNames(inputs, separator);
  const scanned = only ? inputs.filter((input) => only.has(input.server)) : inputs;
  return scanned.map((input) => {
    const context = contextFor(input, index, inputs, separator);
    const fields = fieldsOf(input);
    const findings = fields.flatMap((field) => findingsIn(field, rules, context));
    const items =
      input.tools.length +
      input.prompts.length +
      input.resources.length +
      input.resourceTemplates.length +
      (input.skills?.length ?? 0);
    const report: ScanReport = { server: input.server, scannedAt, items, findings };
    const highest = highestOf(findings);
    if (highest) report.highest = highest;
    return report;
  });
}

/** The severity of the worst finding, or undefined when there is none. */
export function highestOf(findings: readonly ScanFinding[]): ScanSeverity | undefined {
  let highest: ScanSeverity | undefined;
  for (const finding of findings) {
    if (highest === undefined || SEVERITY_RANK[finding.severity] > SEVERITY_RANK[highest]) highest = finding.severity;
  }
  return highest;
}

function fieldsOf(input: ScanInput): ScanField[] {
  return [
    ...input.tools.flatMap(toolFields),
    ...input.prompts.flatMap(promptFields),
    ...input.resources.flatMap(resourceFields),
    ...input.resourceTemplates.flatMap(templateFields),
    ...(input.skills ?? []).flatMap((skill) => skillFields(skill, input.skillFiles ?? {})),
  ];
}

/**
 * Each input's names, kept per input object: a caller that scans one server
 * at a time against the same other inputs (the core, at every catalog change)
 * reads the others' names once, not at every scan.
 */
const namesCache = new WeakMap<ScanInput, { separator: string; names: ForeignName[] }>();

function namesOf(input: ScanInput, separator: string): ForeignName[] {
  const cached = namesCache.get(input);
  if (cached && cached.separator === separator) return cached.names;
  const names = computeNames(input, separator);
  namesCache.set(input, { separator, names });
  return names;
}

function computeNames(input: ScanInput, separator: string): ForeignName[] {
  return [...input.tools, ...input.prompts]
    .filter((item) => typeof item.name === 'string' && item.name !== '')
    .map((item) => {
      const exposed = exposedName(input.server, input.prefix, separator, item.name);
      return { server: input.server, raw: item.name, exposed, skeleton: nameSkeleton(exposed) };
    });
}

/** Every server's tools and prompts, indexed once per scan. */
interface NameIndex {
  byRaw: Map<string, ForeignName[]>;
  byExposed: Map<string, ForeignName[]>;
  bySkeleton: Map<string, ForeignName[]>;
  servers: number;
}

function indexNames(inputs: ScanInput[], separator: string): NameIndex {
  const index: NameIndex = { byRaw: new Map(), byExposed: new Map(), bySkeleton: new Map(), servers: inputs.length };
  const add = (map: Map<string, ForeignName[]>, key: string, name: ForeignName): void => {
    const list = map.get(key);
    if (list) list.push(name);
    else map.set(key, [name]);
  };
  for (const name of inputs.flatMap((input) => namesOf(input, separator))) {
    add(index.byRaw, name.raw, name);
    add(index.byExposed, name.exposed, name);
    add(index.bySkeleton, name.skeleton, name);
  }
  return index;
}

function contextFor(input: ScanInput, index: NameIndex, inputs: ScanInput[], separator: string): RuleContext {
  const foreign = (list: ForeignName[] | undefined): ForeignName[] =>
    (list ?? []).filter((name) => name.server !== input.server);
  const foreignPrefixes = new Map<string, string>();
  for (const other of inputs) {
    if (other.server !== input.server && other.prefix !== '') foreignPrefixes.set(other.server, other.prefix);
  }
  return {
    server: input.server,
    prefix: input.prefix,
    separator,
    ownNames: new Set([...input.tools, ...input.prompts].map((item) => item.name)),
    hasForeign: inputs.some((other) => other.server !== input.server),
    foreignByRaw: (raw) => foreign(index.byRaw.get(raw)),
    foreignByExposed: (exposed) => foreign(index.byExposed.get(exposed))[0],
    foreignBySkeleton: (skeleton) => foreign(index.bySkeleton.get(skeleton)),
    foreignPrefixes,
    serverOfPrefix: new Map([...foreignPrefixes].map(([server, prefix]) => [prefix, server])),
  };
}

function findingsIn(field: ScanField, rules: readonly ScanRuleCheck[], context: RuleContext): ScanFinding[] {
  const findings: ScanFinding[] = [];
  for (const rule of rules) {
    for (const hit of withoutOverlaps(rule.check(field, context))) {
      findings.push({
        rule: rule.rule,
        severity: hit.severity,
        server: context.server,
        item: { kind: field.kind, name: field.item },
        field: field.field,
        span: { start: hit.start, end: hit.end },
        excerpt: excerptOf(field.text, hit.start, hit.end),
        message: hit.message,
      });
    }
  }
  return findings;
}

/** One rule's hits with overlapping spans merged into the worst of them, in text order. */
function withoutOverlaps<T extends { severity: ScanSeverity; start: number; end: number }>(hits: T[]): T[] {
  const sorted = [...hits].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: T[] = [];
  for (const hit of sorted) {
    const last = kept[kept.length - 1];
    if (last && hit.start < last.end) {
      if (SEVERITY_RANK[hit.severity] > SEVERITY_RANK[last.severity]) kept[kept.length - 1] = hit;
      continue;
    }
    kept.push(hit);
  }
  return kept;
}

/**
 * The text of a finding's span as people are shown it: invisible, control
 * and direction-changing characters written as `\u{...}` escapes (the shared
 * definition, which the review screen uses too) so that what the model would
 * read is what the user sees, and very long spans shortened.
 *
 * Longest excerpt kept, in characters of the escaped text.
 */
export const MAX_EXCERPT_LENGTH = 200;

/** The excerpt of `text[start, end)`: escaped, and cut to {@link MAX_EXCERPT_LENGTH} with an ellipsis. */
export function excerptOf(text: string, start: number, end: number): string {
  const escaped = escapeInvisible(text.slice(start, end));
  return escaped.length <= MAX_EXCERPT_LENGTH ? escaped : `${escaped.slice(0, MAX_EXCERPT_LENGTH - 1)}…`;
}
