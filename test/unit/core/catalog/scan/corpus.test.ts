// The scan against its labelled corpus (test/fixtures/poison/corpus/): floors just below the
// figures measured when the rules were last changed, so a rule that loses recall on the held-out
// part, or starts flagging real tools high, fails here. The held-out part is never tuned on
// (docs/security.md#the-corpus); `npm run bench` prints the same figures per rule.
import { describe, expect, it } from 'vitest';
import {
  atLeast,
  loadCorpus,
  scoreCorpus,
  scoreLiveMcpBench,
  setOf,
  shareAtLeast,
} from '../../../../helpers/scanCorpus.js';

const entries = loadCorpus();
const verdicts = scoreCorpus(entries);
const live = scoreLiveMcpBench();

const poisoned = (set: 'dev' | 'held-out') => entries.filter((entry) => entry.poisoned && entry.set === set);
const share = ({ flagged, total }: { flagged: number; total: number }): number => flagged / total;

describe('the scan corpus', () => {
  it('is several hundred labelled definitions, split by a hash of each id', () => {
    expect(entries.filter((entry) => entry.poisoned).length).toBeGreaterThanOrEqual(450);
    expect(entries.filter((entry) => !entry.poisoned).length).toBeGreaterThanOrEqual(180);
    const heldOut = entries.filter((entry) => entry.set === 'held-out').length / entries.length;
    expect(heldOut).toBeGreaterThan(0.25);
    expect(heldOut).toBeLessThan(0.35);
    // The split is a pure function of the id: the same id always lands in the same part.
    expect(setOf('hid-001')).toBe(setOf('hid-001'));
    expect(new Set(entries.map((entry) => entry.kind)).size).toBeGreaterThanOrEqual(20);
  });

  it('flags the held-out poisoned definitions medium or higher (floor 90%, measured 90.4%)', () => {
    expect(share(shareAtLeast(poisoned('held-out'), verdicts, 'medium'))).toBeGreaterThanOrEqual(0.9);
  });

  it('flags the dev poisoned definitions medium or higher (floor 98%, measured 99.1%)', () => {
    expect(share(shareAtLeast(poisoned('dev'), verdicts, 'medium'))).toBeGreaterThanOrEqual(0.98);
  });

  it('flags at most 2 of the 180 hard negatives high', () => {
    const negatives = entries.filter((entry) => !entry.poisoned);
    const high = negatives.filter((entry) => atLeast(verdicts.get(entry.id), 'high')).map((entry) => entry.id);
    expect(high.length, high.join(' ')).toBeLessThanOrEqual(2);
  });

  it('flags none of the 527 real LiveMCPBench tools high, and at most 13 medium (measured 0 and 13)', () => {
    expect(live.size).toBe(527);
    const describe = (key: string) =>
      `${key}: ${live
        .get(key)!
        .findings.map((f) => `${f.severity} ${f.rule} "${f.excerpt}"`)
        .join('; ')}`;
    const high = [...live.keys()].filter((key) => atLeast(live.get(key), 'high'));
    expect(high.map(describe)).toEqual([]);
    const medium = [...live.keys()].filter((key) => atLeast(live.get(key), 'medium'));
    expect(medium.length, medium.map(describe).join('\n')).toBeLessThanOrEqual(13);
  });

  it('names its evidence: every finding on a poisoned definition carries the exact text it read', () => {
    for (const entry of entries.filter((e) => e.poisoned)) {
      for (const finding of verdicts.get(entry.id)!.findings) {
        expect(finding.excerpt.length, `${entry.id} ${finding.rule}`).toBeGreaterThan(0);
        expect(finding.span.end).toBeGreaterThan(finding.span.start);
      }
    }
  });
});
