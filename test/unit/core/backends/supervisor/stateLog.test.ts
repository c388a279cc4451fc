/**
 * A backend's log lines: each state change once, and a backend that keeps
 * failing summarized at most once a minute (not the same warning per retry).
 */
import { describe, expect, it } from 'vitest';
import { BackendStateLog } from '../../../../../electron/core/backends/supervisor/stateLog.js';
import type { Logger } from '../../../../../electron/core/platform/deps.js';

function setup() {
  const lines: string[] = [];
  const logger: Logger = {
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
  let now = 0;
  const log = new BackendStateLog({ id: () => 'gh', logger: () => logger, now: () => now });
  return { lines, log, advance: (ms: number) => void (now += ms) };
}

describe('BackendStateLog', () => {
  it('says a failure once, then one summary a minute while it keeps failing, then the recovery', () => {
    const { lines, log, advance } = setup();
    log.status('connecting', '');
    log.status('down', 'command `gh` was not found on PATH');
    // 20 retries over 11 minutes (one every 33 s), as in the issue.
    for (let retry = 0; retry < 20; retry++) {
      advance(33_000);
      log.status('down', 'command `gh` was not found on PATH');
    }
    expect(lines[0]).toBe('warn backend "gh" is down: command `gh` was not found on PATH');
    const summaries = lines.slice(1);
    expect(summaries.length).toBeGreaterThanOrEqual(9);
    expect(summaries.length).toBeLessThanOrEqual(11); // at most one a minute over 11 minutes
    expect(summaries[0]).toBe(
      'warn backend "gh" is still down: 2 more failed attempts in the last 1 min; last: command `gh` was not found on PATH',
    );
    log.status('up', '');
    expect(lines.at(-1)).toBe('info backend "gh" is up again (after 21 failed attempts)');
  });

  it('logs nothing for a first connection or for staying up, and each new state once', () => {
    const { lines, log } = setup();
    log.status('connecting', '');
    log.status('up', '');
    log.status('up', '');
    expect(lines).toEqual([]);
    log.status('degraded', '3 health probes in a row failed');
    log.status('degraded', '4 health probes in a row failed');
    log.status('up', '');
    log.status('down', 'disconnected');
    log.status('needs-authorization', 'needs sign-in');
    log.status('down', 'disconnected');
    expect(lines).toEqual([
      'warn backend "gh" is degraded: 3 health probes in a row failed',
      'info backend "gh" is up again (after 2 failed attempts)',
      'warn backend "gh" is down: disconnected',
      'warn backend "gh" is down: disconnected',
    ]);
  });
});
