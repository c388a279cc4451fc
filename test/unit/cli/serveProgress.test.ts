/** serve's start progress and its one stop line. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportStartProgress, stoppedLine, type ProgressSource } from '../../../electron/cli/serveProgress.js';

afterEach(() => void vi.useRealTimers());

describe('serve progress', () => {
  it('says how many start, then which are still on their first attempt, until done', () => {
    vi.useFakeTimers();
    const configs = [
      { id: 'fs', enabled: true },
      { id: 'gh', enabled: true },
      { id: 'off', enabled: false },
    ];
    // Before start there is no health yet: the count comes from the config.
    const backends: { id: string; settled: boolean }[] = [];
    const core: ProgressSource = { backendConfigs: () => configs, health: () => backends };
    const lines: string[] = [];
    const progress = reportStartProgress(core, (line) => lines.push(line), 5000);
    expect(lines).toEqual(['starting 2 servers...']);
    backends.push({ id: 'fs', settled: true }, { id: 'gh', settled: false }, { id: 'off', settled: true });
    vi.advanceTimersByTime(5000);
    expect(lines.at(-1)).toBe('still starting: 1 of 2 done; waiting for gh');
    progress.done();
    vi.advanceTimersByTime(20_000);
    expect(lines).toHaveLength(2);
  });

  it('says nothing with no servers, and one stop line', () => {
    const lines: string[] = [];
    reportStartProgress({ backendConfigs: () => [], health: () => [] }, (line) => lines.push(line)).done();
    expect(lines).toEqual([]);
    expect(stoppedLine(12)).toBe('stopped Switchboard and all 12 servers (processes reaped)');
    expect(stoppedLine(1)).toBe('stopped Switchboard and its server (processes reaped)');
  });
});
