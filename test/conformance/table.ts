/**
 * The comparison the runner prints and saves: per scenario and spec version, the verdict against
 * our conformance server alone (direct) and through Switchboard on each proxied target (proxied:
 * the backend spoken to in its own era; bridged: the backend pinned to 2025-11-25, so 2026 clients
 * go through the era bridge), and which cells are regressions (pass direct, fail through
 * Switchboard) not excused as by design. Extension scenarios are reported but not scored, except
 * the skills ones Switchboard serves (SCORED_EXTENSION_SCENARIOS): those must pass through it
 * whenever they pass direct (a skip through Switchboard is a regression too: it would mean the
 * extension went undeclared).
 */
import type { ScenarioResult, Verdict } from './suite.js';

export const EXTENSION = 'extension';

/** Extension scenarios scored like spec ones: Switchboard merges skills (SEP-2640, docs/skills.md). */
export const SCORED_EXTENSION_SCENARIOS: ReadonlySet<string> = new Set([
  'sep-2640-skills-enumeration',
  'sep-2640-skills-manifest',
  'sep-2640-skills-directory',
]);

/** The targets behind Switchboard, each compared with `direct`. */
export const PROXIED_TARGETS = ['proxied', 'bridged'] as const;
export type ProxiedTargetName = (typeof PROXIED_TARGETS)[number];

/** One scenario's outcome on one proxied target. */
export interface Cell {
  verdict: Verdict | 'n/a';
  /** Failing checks (empty when it passes). */
  failures: string[];
  /** pass direct, fail here, and not by design nor an unscored extension. */
  regression: boolean;
  /** Failed here, then passed when run again alone: reported, not failed. */
  flaky?: boolean;
  byDesign?: string;
}

export interface Row {
  scenario: string;
  /** A spec version, or `extension`. */
  version: string;
  direct: Verdict | 'n/a';
  directFailures: string[];
  targets: Record<ProxiedTargetName, Cell>;
}

export interface ByDesignEntry {
  scenario: string;
  versions: string[];
  /** The proxied targets it applies to; absent: every one. */
  targets?: ProxiedTargetName[];
  /**
   * The ids of the checks that may fail; a failure of any other check is still a regression.
   * Absent: any check.
   */
  checks?: string[];
  reason: string;
}

export interface TargetTotals {
  pass: number;
  regressions: number;
  flaky: number;
  byDesign: number;
}

export interface Totals {
  version: string;
  scenarios: number;
  directPass: number;
  targets: Record<ProxiedTargetName, TargetTotals>;
}

function excuseFor(
  byDesign: ByDesignEntry[],
  scenario: string,
  version: string,
  target: ProxiedTargetName,
): ByDesignEntry | undefined {
  return byDesign.find(
    (entry) =>
      entry.scenario === scenario &&
      entry.versions.includes(version) &&
      (entry.targets ?? PROXIED_TARGETS).includes(target),
  );
}

/** Whether `excuse` covers every failing check (failures read `<check id>: <message>`). */
function covers(excuse: ByDesignEntry, failures: string[]): boolean {
  const { checks } = excuse;
  return !checks || failures.every((failure) => checks.some((id) => failure.startsWith(`${id}: `)));
}

function cell(
  direct: ScenarioResult | undefined,
  here: ScenarioResult | undefined,
  entry: ByDesignEntry | undefined,
  version: string,
  scenario: string,
): Cell {
  const scored = version !== EXTENSION || SCORED_EXTENSION_SCENARIOS.has(scenario);
  const failsOnlyHere =
    direct?.verdict === 'pass' &&
    (here?.verdict === 'fail' || (version === EXTENSION && scored && here?.verdict !== 'pass'));
  const excuse = entry && covers(entry, here?.failures ?? []) ? entry : undefined;
  return {
    verdict: here?.verdict ?? 'n/a',
    failures: here?.failures ?? [],
    regression: failsOnlyHere && scored && !excuse,
    ...(failsOnlyHere && excuse ? { byDesign: excuse.reason } : {}),
  };
}

/** One row per scenario run at `version` on any target. */
export function compare(
  version: string,
  direct: Map<string, ScenarioResult>,
  proxied: Record<ProxiedTargetName, Map<string, ScenarioResult>>,
  byDesign: ByDesignEntry[],
): Row[] {
  const names = [...new Set([...direct.keys(), ...PROXIED_TARGETS.flatMap((target) => [...proxied[target].keys()])])];
  return names.sort().map((scenario) => {
    const d = direct.get(scenario);
    const targets = Object.fromEntries(
      PROXIED_TARGETS.map((target) => [
        target,
        cell(d, proxied[target].get(scenario), excuseFor(byDesign, scenario, version, target), version, scenario),
      ]),
    ) as Record<ProxiedTargetName, Cell>;
    return { scenario, version, direct: d?.verdict ?? 'n/a', directFailures: d?.failures ?? [], targets };
  });
}

function targetTotals(rows: Row[], target: ProxiedTargetName): TargetTotals {
  const cells = rows.map((row) => row.targets[target]);
  return {
    pass: cells.filter((c) => c.verdict === 'pass').length,
    regressions: cells.filter((c) => c.regression).length,
    flaky: cells.filter((c) => c.flaky).length,
    byDesign: cells.filter((c) => c.byDesign !== undefined).length,
  };
}

/** Counts per version and target. */
export function totals(rows: Row[]): Totals[] {
  const versions = [...new Set(rows.map((row) => row.version))];
  return versions.map((version) => {
    const mine = rows.filter((row) => row.version === version);
    return {
      version,
      scenarios: mine.length,
      directPass: mine.filter((row) => row.direct === 'pass').length,
      targets: Object.fromEntries(PROXIED_TARGETS.map((target) => [target, targetTotals(mine, target)])) as Record<
        ProxiedTargetName,
        TargetTotals
      >,
    };
  });
}

function mark(c: Cell): string | undefined {
  if (c.regression) return 'REGRESSION';
  if (c.flaky) return 'flaky: passed on retry';
  if (c.byDesign) return 'by design';
  return undefined;
}

/** A row's note: each target's mark, named when the targets differ. */
function note(row: Row): string {
  const marks = PROXIED_TARGETS.map((target) => [target, mark(row.targets[target])] as const);
  const marked = marks.filter(([, m]) => m !== undefined);
  if (marked.length === 0) return row.version === EXTENSION ? 'not scored' : '';
  if (marked.length === marks.length && new Set(marked.map(([, m]) => m)).size === 1) return marked[0]![1]!;
  return marked.map(([target, m]) => `${target}: ${m}`).join('; ');
}

/** "a / b" over the proxied targets. */
function perTarget(t: Totals, field: keyof TargetTotals): string {
  return PROXIED_TARGETS.map((target) => t.targets[target][field]).join(' / ');
}

/** The table as Markdown: the counts, then every row, then the failing checks. */
export function renderMarkdown(rows: Row[], runtimeMs: number): string {
  const lines = ['# Conformance: direct vs through Switchboard', ''];
  lines.push(
    `Suite: @modelcontextprotocol/conformance 0.2.0-alpha.12. Runtime: ${(runtimeMs / 1000).toFixed(1)} s.`,
    '',
    'proxied: the backend spoken to in its own era; bridged: the backend pinned to 2025-11-25 (`protocol: "legacy"`).',
    'Regressions, flaky and by design are counted per target (proxied / bridged).',
    '',
  );
  const heads = PROXIED_TARGETS.map((target) => `${target} pass`).join(' | ');
  lines.push(
    `| version | scenarios | direct pass | ${heads} | regressions | flaky | by design |`,
    `| --- | --- | --- | ${PROXIED_TARGETS.map(() => '---').join(' | ')} | --- | --- | --- |`,
  );
  for (const t of totals(rows)) {
    const passes = PROXIED_TARGETS.map((target) => t.targets[target].pass).join(' | ');
    lines.push(
      `| ${t.version} | ${t.scenarios} | ${t.directPass} | ${passes} | ${perTarget(t, 'regressions')} | ${perTarget(t, 'flaky')} | ${perTarget(t, 'byDesign')} |`,
    );
  }
  lines.push(
    '',
    `| scenario | version | direct | ${PROXIED_TARGETS.join(' | ')} | note |`,
    `| --- | --- | --- | ${PROXIED_TARGETS.map(() => '---').join(' | ')} | --- |`,
  );
  for (const row of rows) {
    const verdicts = PROXIED_TARGETS.map((target) => row.targets[target].verdict).join(' | ');
    lines.push(`| ${row.scenario} | ${row.version} | ${row.direct} | ${verdicts} | ${note(row)} |`);
  }
  const failing = rows.filter(
    (row) => row.direct === 'fail' || PROXIED_TARGETS.some((target) => row.targets[target].verdict === 'fail'),
  );
  if (failing.length > 0) {
    lines.push('', '## Failing checks', '');
    for (const row of failing) {
      const rowNote = note(row);
      lines.push(`### ${row.scenario} (${row.version})${rowNote ? ` — ${rowNote}` : ''}`);
      for (const failure of row.directFailures) lines.push(`- direct: ${failure.replace(/\s+/g, ' ')}`);
      for (const target of PROXIED_TARGETS) {
        for (const failure of row.targets[target].failures) lines.push(`- ${target}: ${failure.replace(/\s+/g, ' ')}`);
      }
      const reasons = new Set(PROXIED_TARGETS.map((target) => row.targets[target].byDesign).filter(Boolean));
      for (const reason of reasons) lines.push(`- by design: ${reason}`);
      lines.push('');
    }
  }
  return `${lines.join('\n')}\n`;
}
