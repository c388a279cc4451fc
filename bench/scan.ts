// Poisoning scan benchmark (issues 25 and 37): the scan over the real LiveMCPBench catalog (70
// servers, 527 tools; clean tools flagged at each severity = the false-positive rate, target: at
// most 2% high), over the labelled corpus in test/fixtures/poison/corpus (recall on the dev part the
// rules are tuned on and on the held-out part they are not, target: 90% of held-out poisoned
// definitions flagged medium or higher; recall and precision per rule), over the scenario fixtures
// in test/fixtures/poison, and the time to scan the catalog replicated to 1054 tools, given per
// 1000 tools. Writes bench/results/scan.json.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { scanCatalog, type ScanInput } from '../electron/core/catalog/index.js';
import type { ScanRule, ScanSeverity } from '../shared/model/scanViews.js';
import {
  atLeast,
  loadCorpus as loadLabelledCorpus,
  loadLiveMcpBench,
  LIVEMCPBENCH_TOOLS,
  ruleAtLeast,
  scoreCorpus,
  scoreLiveMcpBench,
  shareAtLeast,
  type CorpusEntry,
  type Verdict,
} from '../test/helpers/scanCorpus.js';
import { ALL_RULES } from '../electron/core/catalog/scan/rules/allRules.js';
import { percentile, printTable } from './lib.js';

const ROOT = join(import.meta.dirname, '..');
const CORPUS_DIR = join(ROOT, 'test/fixtures/poison');
const RESULTS = join(ROOT, 'bench/results/scan.json');
const SEVERITIES: ScanSeverity[] = ['high', 'medium', 'low'];
const RANK: Record<ScanSeverity, number> = { low: 0, medium: 1, high: 2 };
const TARGET_MS = 1000;
const ROUNDS = 10;

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
  const servers = loadLiveMcpBench();
  return Array.from({ length: copies }, (_, copy) =>
    servers.map((input) => {
      const server = copies === 1 ? input.server : `${input.server}-${copy}`;
      return { ...input, server, prefix: server };
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
const labelled = loadLabelledCorpus();
const verdicts = scoreCorpus(labelled);
const live = scoreLiveMcpBench();
const HELD_OUT_TARGET = 0.9;
const LIVE_HIGH_TARGET = 0.02;

const part = (poisoned: boolean, set?: 'dev' | 'held-out'): CorpusEntry[] =>
  labelled.filter((entry) => entry.poisoned === poisoned && (set === undefined || entry.set === set));
const devPoisoned = part(true, 'dev');
const heldOutPoisoned = part(true, 'held-out');
const negatives = part(false);
const liveVerdicts = [...live.values()];
const countOf = (list: (Verdict | undefined)[], flagged: (verdict: Verdict | undefined) => boolean): number =>
  list.filter(flagged).length;

const recall = {
  dev: shareAtLeast(devPoisoned, verdicts, 'medium'),
  devHigh: shareAtLeast(devPoisoned, verdicts, 'high'),
  heldOut: shareAtLeast(heldOutPoisoned, verdicts, 'medium'),
  heldOutHigh: shareAtLeast(heldOutPoisoned, verdicts, 'high'),
  negativesMedium: shareAtLeast(negatives, verdicts, 'medium'),
  negativesHigh: shareAtLeast(negatives, verdicts, 'high'),
  liveHigh: countOf(liveVerdicts, (v) => atLeast(v, 'high')),
  liveMedium: countOf(liveVerdicts, (v) => atLeast(v, 'medium')),
  liveTools: liveVerdicts.length,
};

/** Per rule, definitions it flags medium or higher in each part, and its precision over all of them. */
const perRule = ALL_RULES.map(({ rule }) => {
  const flags = (entries: CorpusEntry[]) =>
    entries.filter((e) => ruleAtLeast(verdicts.get(e.id), rule, 'medium')).length;
  const dev = flags(devPoisoned);
  const heldOut = flags(heldOutPoisoned);
  const hardNegatives = flags(negatives);
  const liveMedium = countOf(liveVerdicts, (v) => ruleAtLeast(v, rule, 'medium'));
  const liveHigh = countOf(liveVerdicts, (v) => ruleAtLeast(v, rule, 'high'));
  const truePositives = dev + heldOut;
  const precision = truePositives / Math.max(1, truePositives + hardNegatives + liveMedium);
  return { rule, dev, heldOut, hardNegatives, liveMedium, liveHigh, precision };
});
const overallTrue = recall.dev.flagged + recall.heldOut.flagged;
const overallPrecision = overallTrue / Math.max(1, overallTrue + recall.negativesMedium.flagged + recall.liveMedium);

printTable(
  `Scan: the real catalog (${LIVEMCPBENCH_TOOLS}), tools by their worst finding`,
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
  `Scan: the labelled corpus (test/fixtures/poison/corpus), flagged medium or higher (held-out: never tuned on)`,
  ['part', 'definitions', 'flagged medium+', 'share', 'flagged high', 'target'],
  [
    [
      'dev poisoned',
      String(recall.dev.total),
      String(recall.dev.flagged),
      pct(recall.dev.flagged, recall.dev.total),
      String(recall.devHigh.flagged),
      '',
    ],
    [
      'held-out poisoned',
      String(recall.heldOut.total),
      String(recall.heldOut.flagged),
      pct(recall.heldOut.flagged, recall.heldOut.total),
      String(recall.heldOutHigh.flagged),
      `>= ${pct(HELD_OUT_TARGET, 1)}`,
    ],
    [
      'hard negatives (clean)',
      String(recall.negativesMedium.total),
      String(recall.negativesMedium.flagged),
      pct(recall.negativesMedium.flagged, recall.negativesMedium.total),
      String(recall.negativesHigh.flagged),
      'none high',
    ],
    [
      'LiveMCPBench tools (clean)',
      String(recall.liveTools),
      String(recall.liveMedium),
      pct(recall.liveMedium, recall.liveTools),
      `${recall.liveHigh} (${pct(recall.liveHigh, recall.liveTools)})`,
      `high <= ${pct(LIVE_HIGH_TARGET, 1)}`,
    ],
    ['precision (all parts)', '', '', pct(overallPrecision, 1), '', ''],
  ],
);
printTable(
  'Scan: per rule, definitions it flags medium or higher (recall = share of the poisoned part; precision over every part)',
  ['rule', 'dev', 'recall dev', 'held-out', 'recall held-out', 'hard neg.', 'LiveMCPBench (high)', 'precision'],
  perRule.map((r) => [
    r.rule,
    String(r.dev),
    pct(r.dev, devPoisoned.length),
    String(r.heldOut),
    pct(r.heldOut, heldOutPoisoned.length),
    String(r.hardNegatives),
    `${r.liveMedium} (${r.liveHigh})`,
    pct(r.precision, 1),
  ]),
);
printTable(
  `Scan: time over ${time.tools} tools (${ROUNDS} rounds)`,
  ['measure', 'ms', 'share of 1 s', 'per tool', 'ms per 1000 tools'],
  [
    [
      'p50',
      time.p50.toFixed(1),
      pct(time.p50, TARGET_MS),
      `${((1000 * time.p50) / time.tools).toFixed(0)} µs`,
      ((1000 * time.p50) / time.tools).toFixed(0),
    ],
    [
      'p95',
      time.p95.toFixed(1),
      pct(time.p95, TARGET_MS),
      `${((1000 * time.p95) / time.tools).toFixed(0)} µs`,
      ((1000 * time.p95) / time.tools).toFixed(0),
    ],
  ],
);

await mkdir(join(ROOT, 'bench/results'), { recursive: true });
await writeFile(
  RESULTS,
  `${JSON.stringify(
    {
      falsePositives: fp,
      corpus: { ...corpus, perRule: Object.fromEntries(corpus.perRule) },
      labelled: { recall, precision: overallPrecision, perRule },
      time,
    },
    null,
    2,
  )}\n`,
);
