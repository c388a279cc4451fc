/**
 * The comparison the runner prints and saves: per scenario and spec version, the verdict against
 * our conformance server alone (direct) and through Switchboard (proxied), and which rows are
 * regressions (pass direct, fail proxied) not excused as by design. Extension scenarios (skills,
 * tasks) are reported but not scored.
 */
import type { ScenarioResult, Verdict } from './suite.js';

export const EXTENSION = 'extension';

export interface Row {
  scenario: string;
  /** A spec version, or `extension`. */
  version: string;
  direct: Verdict | 'n/a';
  proxied: Verdict | 'n/a';
  /** Failing checks through Switchboard (empty when it passes). */
  proxiedFailures: string[];
  directFailures: string[];
  /** pass direct, fail proxied, and not by design nor an extension. */
  regression: boolean;
  /** Failed proxied, then passed when run again alone: reported, not failed. */
  flaky?: boolean;
  byDesign?: string;
}

export interface ByDesignEntry {
  scenario: string;
  versions: string[];
  reason: string;
}

export interface Totals {
  version: string;
  scenarios: number;
  directPass: number;
  proxiedPass: number;
  regressions: number;
  flaky: number;
  byDesign: number;
}

/** One row per scenario run at `version` on either target. */
export function compare(
  version: string,
  direct: Map<string, ScenarioResult>,
  proxied: Map<string, ScenarioResult>,
  byDesign: ByDesignEntry[],
): Row[] {
  const names = [...new Set([...direct.keys(), ...proxied.keys()])].sort();
  return names.map((scenario) => {
    const d = direct.get(scenario);
    const p = proxied.get(scenario);
    const excuse = byDesign.find((entry) => entry.scenario === scenario && entry.versions.includes(version));
    const failsOnlyProxied = d?.verdict === 'pass' && p?.verdict === 'fail';
    return {
      scenario,
      version,
      direct: d?.verdict ?? 'n/a',
      proxied: p?.verdict ?? 'n/a',
      directFailures: d?.failures ?? [],
      proxiedFailures: p?.failures ?? [],
      regression: failsOnlyProxied && version !== EXTENSION && !excuse,
      ...(failsOnlyProxied && excuse ? { byDesign: excuse.reason } : {}),
    };
  });
}

/** Counts per version. */
export function totals(rows: Row[]): Totals[] {
  const versions = [...new Set(rows.map((row) => row.version))];
  return versions.map((version) => {
    const mine = rows.filter((row) => row.version === version);
    return {
      version,
      scenarios: mine.length,
      directPass: mine.filter((row) => row.direct === 'pass').length,
      proxiedPass: mine.filter((row) => row.proxied === 'pass').length,
      regressions: mine.filter((row) => row.regression).length,
      flaky: mine.filter((row) => row.flaky).length,
      byDesign: mine.filter((row) => row.byDesign !== undefined).length,
    };
  });
}

function mark(row: Row): string {
  if (row.regression) return 'REGRESSION';
  if (row.flaky) return 'flaky: passed on retry';
  if (row.byDesign) return 'by design';
  return row.version === EXTENSION ? 'not scored' : '';
}

/** The table as Markdown: the counts, then every row, then the proxied failures' checks. */
export function renderMarkdown(rows: Row[], runtimeMs: number): string {
  const lines = ['# Conformance: direct vs through Switchboard', ''];
  lines.push(
    `Suite: @modelcontextprotocol/conformance 0.2.0-alpha.12. Runtime: ${(runtimeMs / 1000).toFixed(1)} s.`,
    '',
  );
  lines.push(
    '| version | scenarios | direct pass | proxied pass | regressions | flaky | by design |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const t of totals(rows)) {
    lines.push(
      `| ${t.version} | ${t.scenarios} | ${t.directPass} | ${t.proxiedPass} | ${t.regressions} | ${t.flaky} | ${t.byDesign} |`,
    );
  }
  lines.push('', '| scenario | version | direct | proxied | note |', '| --- | --- | --- | --- | --- |');
  for (const row of rows)
    lines.push(`| ${row.scenario} | ${row.version} | ${row.direct} | ${row.proxied} | ${mark(row)} |`);
  const failing = rows.filter((row) => row.proxied === 'fail' || row.direct === 'fail');
  if (failing.length > 0) {
    lines.push('', '## Failing checks', '');
    for (const row of failing) {
      lines.push(`### ${row.scenario} (${row.version})${row.byDesign || row.flaky ? ` — ${mark(row)}` : ''}`);
      for (const failure of row.directFailures) lines.push(`- direct: ${failure.replace(/\s+/g, ' ')}`);
      for (const failure of row.proxiedFailures) lines.push(`- proxied: ${failure.replace(/\s+/g, ' ')}`);
      lines.push('');
    }
  }
  return `${lines.join('\n')}\n`;
}
