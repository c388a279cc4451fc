/**
 * The poisoning scan's labelled corpus (test/fixtures/poison/corpus/) and its
 * scoring, shared by the unit test that holds the floors and by
 * `npm run bench` (bench/scan.ts), so both count the same way. Each
 * definition is scanned as the only item of a server "suspect", beside the
 * clean neighbour servers (so shadowing and name imitation have real tools to
 * aim at); the real LiveMCPBench catalog is scanned as one config. The
 * held-out part is chosen by a hash of each id, fixed before any rule was
 * tuned: rules are tuned on the dev part only.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Prompt, Resource, ResourceTemplateType, Tool } from '@modelcontextprotocol/client';
import { scanCatalogWith, type ScanInput } from '../../electron/core/catalog/scan/scanCatalog.js';
import { ALL_RULES } from '../../electron/core/catalog/scan/rules/allRules.js';
import type { ScanRuleCheck } from '../../electron/core/catalog/scan/rules/rule.js';
import type { ScanFinding, ScanSeverity } from '../../shared/model/scanViews.js';

const ROOT = join(import.meta.dirname, '..', '..');
export const CORPUS_DIR = join(ROOT, 'test', 'fixtures', 'poison', 'corpus');
export const LIVEMCPBENCH_TOOLS = join(ROOT, 'test', 'fixtures', 'livemcpbench', 'tools.json');

/** Which part of the corpus an entry is in. */
export type CorpusSet = 'dev' | 'held-out';

/** One labelled definition. */
export interface CorpusEntry {
  id: string;
  /** The attack kind (poisoned) or the kind of tool (negatives). */
  kind: string;
  source: string;
  poisoned: boolean;
  set: CorpusSet;
  /** The "suspect" server holding only this definition. */
  input: ScanInput;
}

interface RawEntry {
  id: string;
  kind: string;
  source: string;
  prefix?: string;
  tool?: Tool;
  prompt?: Prompt;
  resource?: Resource;
  resourceTemplate?: ResourceTemplateType;
}

const SUSPECT = 'suspect';
const RANK: Record<ScanSeverity, number> = { low: 0, medium: 1, high: 2 };

/**
 * The split, fixed up front: an id is held out when the first 32 bits of its
 * SHA-256, modulo 10, are below 3 (about 30% of the corpus).
 */
export function setOf(id: string): CorpusSet {
  const head = Number.parseInt(createHash('sha256').update(id).digest('hex').slice(0, 8), 16);
  return head % 10 < 3 ? 'held-out' : 'dev';
}

function inputOf(raw: RawEntry): ScanInput {
  const tool = raw.tool && { ...raw.tool, inputSchema: raw.tool.inputSchema ?? { type: 'object', properties: {} } };
  return {
    server: SUSPECT,
    prefix: raw.prefix ?? SUSPECT,
    tools: tool ? [tool] : [],
    prompts: raw.prompt ? [raw.prompt] : [],
    resources: raw.resource ? [raw.resource] : [],
    resourceTemplates: raw.resourceTemplate ? [raw.resourceTemplate] : [],
  };
}

/** The clean servers every entry is scanned beside. */
export function loadNeighbours(): ScanInput[] {
  const { servers } = JSON.parse(readFileSync(join(CORPUS_DIR, 'neighbours.json'), 'utf8')) as {
    servers: { server: string; prefix: string; tools: Tool[] }[];
  };
  return servers.map(({ server, prefix, tools }) => ({
    server,
    prefix,
    tools,
    prompts: [],
    resources: [],
    resourceTemplates: [],
  }));
}

/** Every entry: the poisoned files (`poisoned-*.json`) and the hard negatives (`negatives.json`). */
export function loadCorpus(): CorpusEntry[] {
  const files = readdirSync(CORPUS_DIR)
    .filter((file) => /^(?:poisoned-.*|negatives)\.json$/.test(file))
    .sort();
  const entries = files.flatMap((file) => {
    const { entries: raw } = JSON.parse(readFileSync(join(CORPUS_DIR, file), 'utf8')) as { entries: RawEntry[] };
    const poisoned = file !== 'negatives.json';
    return raw.map((entry) => ({
      id: entry.id,
      kind: entry.kind,
      source: entry.source,
      poisoned,
      set: setOf(entry.id),
      input: inputOf(entry),
    }));
  });
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.id)) throw new Error(`corpus id ${entry.id} appears twice`);
    seen.add(entry.id);
  }
  return entries;
}

/** The LiveMCPBench catalog as scan inputs, one per server. */
export function loadLiveMcpBench(): ScanInput[] {
  const { servers } = JSON.parse(readFileSync(LIVEMCPBENCH_TOOLS, 'utf8')) as {
    servers: Record<string, { tools: Tool[] }>;
  };
  return Object.entries(servers).map(([server, { tools }]) => ({
    server,
    prefix: server,
    tools,
    prompts: [],
    resources: [],
    resourceTemplates: [],
  }));
}

/** What the scan said about one scored thing (a corpus entry or one LiveMCPBench tool). */
export interface Verdict {
  /** The worst severity, or undefined when nothing was found. */
  worst?: ScanSeverity;
  /** Per rule, its worst severity. */
  rules: Map<string, ScanSeverity>;
  findings: ScanFinding[];
}

function verdictOf(findings: ScanFinding[]): Verdict {
  const rules = new Map<string, ScanSeverity>();
  let worst: ScanSeverity | undefined;
  for (const finding of findings) {
    const was = rules.get(finding.rule);
    if (!was || RANK[finding.severity] > RANK[was]) rules.set(finding.rule, finding.severity);
    if (!worst || RANK[finding.severity] > RANK[worst]) worst = finding.severity;
  }
  return worst ? { worst, rules, findings } : { rules, findings };
}

/** Each entry's verdict, scanned beside the neighbours. */
export function scoreCorpus(
  entries: readonly CorpusEntry[],
  rules: readonly ScanRuleCheck[] = ALL_RULES,
  neighbours: ScanInput[] = loadNeighbours(),
): Map<string, Verdict> {
  const only = new Set([SUSPECT]);
  const verdicts = new Map<string, Verdict>();
  for (const entry of entries) {
    const [report] = scanCatalogWith([entry.input, ...neighbours], rules, new Date(0), undefined, only);
    verdicts.set(entry.id, verdictOf(report!.findings));
  }
  return verdicts;
}

/** Each LiveMCPBench tool's verdict (`server/tool`), the catalog scanned as one config. */
export function scoreLiveMcpBench(
  inputs: ScanInput[] = loadLiveMcpBench(),
  rules: readonly ScanRuleCheck[] = ALL_RULES,
): Map<string, Verdict> {
  const verdicts = new Map<string, Verdict>();
  for (const input of inputs)
    for (const tool of input.tools) verdicts.set(`${input.server}/${tool.name}`, verdictOf([]));
  const reports = scanCatalogWith(inputs, rules, new Date(0));
  const byItem = new Map<string, ScanFinding[]>();
  for (const finding of reports.flatMap((report) => report.findings)) {
    const key = `${finding.server}/${finding.item.name}`;
    byItem.set(key, [...(byItem.get(key) ?? []), finding]);
  }
  for (const [key, findings] of byItem) verdicts.set(key, verdictOf(findings));
  return verdicts;
}

/** Whether a verdict reaches a severity. */
export function atLeast(verdict: Verdict | undefined, severity: ScanSeverity): boolean {
  return verdict?.worst !== undefined && RANK[verdict.worst] >= RANK[severity];
}

/** Whether one rule's findings in a verdict reach a severity. */
export function ruleAtLeast(verdict: Verdict | undefined, rule: string, severity: ScanSeverity): boolean {
  const found = verdict?.rules.get(rule);
  return found !== undefined && RANK[found] >= RANK[severity];
}

/** The share of `entries` whose verdict reaches `severity`. */
export function shareAtLeast(
  entries: readonly CorpusEntry[],
  verdicts: Map<string, Verdict>,
  severity: ScanSeverity,
): { flagged: number; total: number } {
  return {
    flagged: entries.filter((entry) => atLeast(verdicts.get(entry.id), severity)).length,
    total: entries.length,
  };
}
