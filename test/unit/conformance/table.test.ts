/**
 * The conformance runner's verdicts and comparison (test/conformance): what fails CI must be
 * exactly "passes against the server alone, fails through Switchboard", minus what byDesign.json
 * excuses for that spec version, never an extension scenario.
 */
import { describe, expect, it } from 'vitest';
import { judge, type ScenarioResult } from '../../conformance/suite.js';
import { compare, EXTENSION, renderMarkdown, totals } from '../../conformance/table.js';

const check = (status: string, id = 'c') => ({ id, status, errorMessage: `${id} said ${status}` });
const result = (verdict: ScenarioResult['verdict']): ScenarioResult => ({ verdict, counts: {}, failures: [] });
const results = (entries: Record<string, ScenarioResult['verdict']>) =>
  new Map(Object.entries(entries).map(([name, verdict]) => [name, result(verdict)]));

describe('judge', () => {
  it('fails a scenario on any FAILURE and keeps its message', () => {
    const judged = judge([check('SUCCESS'), check('FAILURE', 'bad'), check('WARNING')]);
    expect(judged.verdict).toBe('fail');
    expect(judged.failures).toEqual(['bad: bad said FAILURE']);
  });
  it('skips a scenario whose scored checks all skipped, ignoring INFO', () => {
    expect(judge([check('SKIPPED'), check('INFO')]).verdict).toBe('skip');
  });
  it('passes successes and warnings', () => {
    expect(judge([check('SUCCESS'), check('WARNING'), check('INFO')]).verdict).toBe('pass');
  });
});

describe('compare', () => {
  const byDesign = [{ scenario: 'resources-read-text', versions: ['2025-11-25'], reason: 'URIs are rewritten' }];

  it('flags pass-direct/fail-proxied as a regression unless excused for that version', () => {
    const direct = results({ 'resources-read-text': 'pass', 'tools-list': 'pass', ping: 'fail' });
    const proxied = results({ 'resources-read-text': 'fail', 'tools-list': 'fail', ping: 'fail' });
    const at2025 = compare('2025-11-25', direct, proxied, byDesign);
    expect(at2025.filter((row) => row.regression).map((row) => row.scenario)).toEqual(['tools-list']);
    expect(at2025.find((row) => row.scenario === 'resources-read-text')?.byDesign).toBe('URIs are rewritten');
    const at2026 = compare('2026-07-28', direct, proxied, byDesign);
    expect(at2026.filter((row) => row.regression).map((row) => row.scenario)).toEqual([
      'resources-read-text',
      'tools-list',
    ]);
  });

  it('reports extension scenarios without scoring them, and a scenario missing on one side as n/a', () => {
    const rows = compare(EXTENSION, results({ 'tasks-lifecycle': 'pass' }), results({}), []);
    expect(rows).toMatchObject([{ scenario: 'tasks-lifecycle', direct: 'pass', proxied: 'n/a', regression: false }]);
    const failing = compare(EXTENSION, results({ a: 'pass' }), results({ a: 'fail' }), []);
    expect(failing[0]?.regression).toBe(false);
  });

  it('counts per version and renders every row', () => {
    const rows = compare('2026-07-28', results({ a: 'pass', b: 'pass' }), results({ a: 'pass', b: 'fail' }), []);
    expect(totals(rows)).toEqual([
      { version: '2026-07-28', scenarios: 2, directPass: 2, proxiedPass: 1, regressions: 1, flaky: 0, byDesign: 0 },
    ]);
    expect(renderMarkdown(rows, 1000)).toContain('| b | 2026-07-28 | pass | fail | REGRESSION |');
  });
});
