// Poisoning scan benchmark (issue 25): the scan over the real LiveMCPBench catalog (70 servers,
// 527 tools; clean tools flagged at each severity = the false-positive rate, target: no high),
// over the poisoned corpus in test/fixtures/poison (share of labelled items caught, per rule and
// overall, beside the share of clean items kept at or below their bound), and the time to scan the
// catalog replicated to 1054 tools (target: well under a second; printed as a share of 1 s).
// Writes bench/results/scan.json.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { scanCatalog, type ScanInput } from '../electron/core/catalog/index.js';
import type { ScanRule, ScanSeverity } from '../shared/model/scanViews.js';
import { percentile, printTable } from './lib.js';
import { DATASET_DIR, loadServers } from './searchScoring.js';

const ROOT = join(import.meta.dirname, '..');
const CORPUS_DIR = join(ROOT, 'test/fixtures/poison');
const RESULTS = join(ROOT, 'bench/results/scan.json');
const SEVERITIES: ScanSeverity[] = ['high', 'medium', 'low'];
const RANK: Record<ScanSeverity, number> = { low: 0, medium: 1, high: 2 };
const TARGET_MS = 1000;
const ROUNDS = 30;

interface Label {
  server: string;
  kind: string;
  item: string;
  rules?: ScanRule[];
  atLeast?: ScanSeverity;
  atMost?: ScanSeverity;
}
type Scenario = { name: string; servers: ScanInput[]; labels: Label[] };

const pct = (part: number, whole: number): string => `${((100 * part) / Math.max(1, whole)).toFixed(1)}%`;

function realCatalog(copies: number): ScanInput[] {
  const servers = Object.entries(loadServers());
  return Array.from({ length: copies }, (_, copy) =>
    servers.map(([id, { tools }]) => {
      const server = copies === 1 ? id : `${id}-${copy}`;
      return { server, prefix: server, tools, prompts: [], resources: [], resourceTemplates: [] };
    }),
  ).flat();
}

/** Tools of the real catalog whose worst finding is each severity. */
function falsePositives(): Record<ScanSeverity, number> & { tools: number } {
  const reports = scanCatalog(realCatalog(1));
  const worst = new Map<string, ScanSeverity>();
  for (const finding of reports.flatMap((report) => report.findings)) {
    const key = `${finding.server}/${finding.item.name}`;
    const was = worst.get(key);
    if (!was || RANK[finding.severity] > RANK[was]) worst.set(key, finding.severity);
  }
  const counts = { high: 0, medium: 0, low: 0, tools: reports.reduce((n, r) => n + r.items, 0) };
  for (const severity of worst.values()) counts[severity]++;
  return counts;
}

async function loadCorpus(): Promise<Scenario[]> {
  const files = (await readdir(CORPUS_DIR)).filter((file) => file.endsWith('.json')).sort();
  const loaded = await Promise.all(
    files.map(async (file) => JSON.parse(await readFile(join(CORPUS_DIR, file), 'utf8'))),
  );
  return loaded.flatMap((data: { scenarios: Scenario[] }) => data.scenarios);
}

/** Per rule: labelled items expecting it and those where it fired; clean items kept within bound. */
function corpusScores(scenarios: Scenario[]) {
  const perRule = new Map<string, { expected: number; caught: number }>();
  let poisoned = 0;
  let caught = 0;
  let clean = 0;
  let cleanKept = 0;
  for (const scenario of scenarios) {
    const reports = scanCatalog(scenario.servers);
    for (const label of scenario.labels) {
      const findings = reports
        .find((report) => report.server === label.server)!
        .findings.filter((f) => f.item.name === label.item && f.item.kind === label.kind);
      const worst = Math.max(-1, ...findings.map((f) => RANK[f.severity]));
      if (label.atMost) {
        clean++;
        if (worst <= RANK[label.atMost]) cleanKept++;
        continue;
      }
      poisoned++;
      if (worst >= RANK[label.atLeast ?? 'high']) caught++;
      for (const rule of label.rules ?? []) {
        const entry = perRule.get(rule) ?? { expected: 0, caught: 0 };
        entry.expected++;
        if (findings.some((f) => f.rule === rule)) entry.caught++;
        perRule.set(rule, entry);
      }
    }
  }
  return { perRule, poisoned, caught, clean, cleanKept };
}

function timing(): { tools: number; p50: number; p95: number } {
  const inputs = realCatalog(2);
  const tools = inputs.reduce((n, input) => n + input.tools.length, 0);
  scanCatalog(inputs);
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    scanCatalog(inputs);
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { tools, p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

const fp = falsePositives();
const corpus = corpusScores(await loadCorpus());
const time = timing();

printTable(
  `Scan: the real catalog (${DATASET_DIR}), tools by their worst finding`,
  ['severity', 'tools', 'rate', 'target'],
  SEVERITIES.map((severity) => [
    severity,
    String(fp[severity]),
    pct(fp[severity], fp.tools),
    severity === 'high' ? '0' : severity === 'medium' ? 'as few as can be' : '',
  ]),
);
printTable(
  'Scan: the poisoned corpus (test/fixtures/poison), caught per rule',
  ['rule', 'labelled', 'caught', 'share'],
  [
    ...[...corpus.perRule].map(([rule, { expected, caught }]) => [
      rule,
      String(expected),
      String(caught),
      pct(caught, expected),
    ]),
    ['items at their severity', String(corpus.poisoned), String(corpus.caught), pct(corpus.caught, corpus.poisoned)],
    ['clean items within bound', String(corpus.clean), String(corpus.cleanKept), pct(corpus.cleanKept, corpus.clean)],
  ],
);
printTable(
  `Scan: time over ${time.tools} tools (${ROUNDS} rounds)`,
  ['measure', 'ms', 'share of 1 s', 'per tool'],
  [
    ['p50', time.p50.toFixed(1), pct(time.p50, TARGET_MS), `${((1000 * time.p50) / time.tools).toFixed(0)} µs`],
    ['p95', time.p95.toFixed(1), pct(time.p95, TARGET_MS), `${((1000 * time.p95) / time.tools).toFixed(0)} µs`],
  ],
);

await mkdir(join(ROOT, 'bench/results'), { recursive: true });
await writeFile(
  RESULTS,
  `${JSON.stringify({ falsePositives: fp, corpus: { ...corpus, perRule: Object.fromEntries(corpus.perRule) }, time }, null, 2)}\n`,
);
