/**
 * The conformance runner's verdicts and comparison (test/conformance): what fails CI must be
 * exactly "passes against the server alone, fails through Switchboard" on any proxied target
 * (proxied, bridged), minus what byDesign.json excuses for that spec version and target, never an
 * extension scenario.
 */
import { describe, expect, it } from 'vitest';
import { judge, type ScenarioResult } from '../../conformance/suite.js';
import { compare, EXTENSION, renderMarkdown, totals, type ByDesignEntry } from '../../conformance/table.js';

const check = (status: string, id = 'c') => ({ id, status, errorMessage: `${id} said ${status}` });
const result = (verdict: ScenarioResult['verdict'], failures: string[] = []): ScenarioResult => ({
  verdict,
  counts: {},
  failures,
});
const results = (entries: Record<string, ScenarioResult['verdict']>) =>
  new Map(Object.entries(entries).map(([name, verdict]) => [name, result(verdict)]));
/** The same verdicts on both proxied targets. */
const both = (entries: Record<string, ScenarioResult['verdict']>) => ({
  proxied: results(entries),
  bridged: results(entries),
});

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
  const byDesign: ByDesignEntry[] = [
    { scenario: 'resources-read-text', versions: ['2025-11-25'], reason: 'URIs are rewritten' },
    { scenario: 'basic-elicitation', versions: ['2026-07-28'], targets: ['bridged'], reason: 'keys are ours' },
  ];
  const regressed = (rows: ReturnType<typeof compare>, target: 'proxied' | 'bridged') =>
    rows.filter((row) => row.targets[target].regression).map((row) => row.scenario);

  it('flags pass-direct/fail-proxied as a regression unless excused for that version', () => {
    const direct = results({ 'resources-read-text': 'pass', 'tools-list': 'pass', ping: 'fail' });
    const proxied = both({ 'resources-read-text': 'fail', 'tools-list': 'fail', ping: 'fail' });
    const at2025 = compare('2025-11-25', direct, proxied, byDesign);
    expect(regressed(at2025, 'proxied')).toEqual(['tools-list']);
    expect(regressed(at2025, 'bridged')).toEqual(['tools-list']);
    const readText = at2025.find((row) => row.scenario === 'resources-read-text');
    expect(readText?.targets.proxied.byDesign).toBe('URIs are rewritten');
    expect(readText?.targets.bridged.byDesign).toBe('URIs are rewritten');
    const at2026 = compare('2026-07-28', direct, proxied, byDesign);
    expect(regressed(at2026, 'proxied')).toEqual(['resources-read-text', 'tools-list']);
  });

  it('applies an entry with targets to those targets only', () => {
    const direct = results({ 'basic-elicitation': 'pass' });
    const rows = compare('2026-07-28', direct, both({ 'basic-elicitation': 'fail' }), byDesign);
    expect(rows[0]?.targets.bridged).toMatchObject({ regression: false, byDesign: 'keys are ours' });
    expect(rows[0]?.targets.proxied).toMatchObject({ regression: true });
    expect(rows[0]?.targets.proxied.byDesign).toBeUndefined();
  });

  it('excuses only the checks an entry names: another failing check is a regression', () => {
    const entry: ByDesignEntry = {
      scenario: 'server-stateless',
      versions: ['2026-07-28'],
      targets: ['bridged'],
      checks: ['sep-2575-server-rejects-undeclared-capability'],
      reason: 'session capabilities',
    };
    const direct = results({ 'server-stateless': 'pass' });
    const failing = (...failures: string[]) => ({
      proxied: results({ 'server-stateless': 'pass' }),
      bridged: new Map([['server-stateless', result('fail', failures)]]),
    });
    const named = compare('2026-07-28', direct, failing('sep-2575-server-rejects-undeclared-capability: ran'), [entry]);
    expect(named[0]?.targets.bridged).toMatchObject({ regression: false, byDesign: 'session capabilities' });
    const other = compare(
      '2026-07-28',
      direct,
      failing('sep-2575-server-rejects-undeclared-capability: ran', 'scenario-timeout: did not complete'),
      [entry],
    );
    expect(other[0]?.targets.bridged).toMatchObject({ regression: true });
    expect(other[0]?.targets.bridged.byDesign).toBeUndefined();
  });

  it('flags a scenario that fails on the bridged target alone', () => {
    const direct = results({ 'tools-call-sampling': 'pass' });
    const rows = compare(
      '2026-07-28',
      direct,
      { proxied: results({ 'tools-call-sampling': 'pass' }), bridged: results({ 'tools-call-sampling': 'fail' }) },
      byDesign,
    );
    expect(regressed(rows, 'bridged')).toEqual(['tools-call-sampling']);
    expect(regressed(rows, 'proxied')).toEqual([]);
    expect(renderMarkdown(rows, 1000)).toContain(
      '| tools-call-sampling | 2026-07-28 | pass | pass | fail | bridged: REGRESSION |',
    );
  });

  it('reports extension scenarios without scoring them, and a scenario missing on one side as n/a', () => {
    const rows = compare(EXTENSION, results({ 'tasks-lifecycle': 'pass' }), both({}), []);
    expect(rows).toMatchObject([
      {
        scenario: 'tasks-lifecycle',
        direct: 'pass',
        targets: { proxied: { verdict: 'n/a', regression: false }, bridged: { verdict: 'n/a', regression: false } },
      },
    ]);
    const failing = compare(EXTENSION, results({ a: 'pass' }), both({ a: 'fail' }), []);
    expect(failing[0]?.targets.bridged.regression).toBe(false);
  });

  it('scores the skills scenarios Switchboard serves: failing or skipped through it while passing direct', () => {
    const direct = results({ 'sep-2640-skills-enumeration': 'pass', 'sep-2640-skills-manifest': 'pass' });
    const rows = compare(
      EXTENSION,
      direct,
      {
        proxied: results({ 'sep-2640-skills-enumeration': 'skip', 'sep-2640-skills-manifest': 'pass' }),
        bridged: results({ 'sep-2640-skills-enumeration': 'pass', 'sep-2640-skills-manifest': 'fail' }),
      },
      [],
    );
    expect(regressed(rows, 'proxied')).toEqual(['sep-2640-skills-enumeration']);
    expect(regressed(rows, 'bridged')).toEqual(['sep-2640-skills-manifest']);
  });

  it('counts per version and target and renders every row with its failing checks', () => {
    const bridged = new Map([
      ['a', result('pass')],
      ['b', result('fail', ['sep-x: inputRequests missing expected key "user_name"'])],
    ]);
    const rows = compare(
      '2026-07-28',
      results({ a: 'pass', b: 'pass' }),
      { proxied: results({ a: 'pass', b: 'pass' }), bridged },
      [],
    );
    expect(totals(rows)).toEqual([
      {
        version: '2026-07-28',
        scenarios: 2,
        directPass: 2,
        targets: {
          proxied: { pass: 2, regressions: 0, flaky: 0, byDesign: 0 },
          bridged: { pass: 1, regressions: 1, flaky: 0, byDesign: 0 },
        },
      },
    ]);
    const markdown = renderMarkdown(rows, 1000);
    expect(markdown).toContain('| 2026-07-28 | 2 | 2 | 2 | 1 | 0 / 1 | 0 / 0 | 0 / 0 |');
    expect(markdown).toContain('- bridged: sep-x: inputRequests missing expected key "user_name"');
  });
});
