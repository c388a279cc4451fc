/**
 * The audit export against a real, rotated log: oldest first across files,
 * filtered by time, client and person (subject or email), the person's
 * subject and email kept and secrets still redacted, and a bad `since` refused.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog, type AuditEntry } from '../../../../../electron/core/catalog/policy/auditLog.js';
import { exportAudit } from '../../../../../electron/core/catalog/policy/auditExport.js';

function entry(minute: number, fields: Partial<AuditEntry> = {}): AuditEntry {
  return {
    time: new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString(),
    client: 'cursor',
    backend: 'github',
    kind: 'tools/call',
    item: 'create_issue',
    outcome: 'ok',
    durationMs: 3,
    ...fields,
  };
}

describe('exportAudit', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-audit-export-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** What an export with `filter` writes, parsed. */
  async function exported(filter: Parameters<typeof exportAudit>[1]): Promise<AuditEntry[]> {
    const lines: string[] = [];
    await exportAudit(dir, filter, (line) => void lines.push(line));
    expect(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    return lines.map((line) => JSON.parse(line) as AuditEntry);
  }

  it('writes every entry oldest first across rotated files, filtered by time, client and person', async () => {
    // Small files: the 40 entries spread over the active file and rotated ones.
    const log = new AuditLog({ dir, maxBytes: 16 * 1024, files: 3, redact: () => ['sk-secret-value'] });
    const alice = { subject: 'u-1', email: 'alice@x' };
    for (let minute = 0; minute < 40; minute++) {
      log.record(
        entry(minute, {
          client: minute % 2 ? 'vscode' : 'cursor',
          ...(minute % 4 === 0 ? { principal: alice } : {}),
          detail: `call ${minute} with sk-secret-value`,
        }),
      );
    }
    await log.close();
    const all = await exported({});
    expect(all.map((e) => e.time)).toEqual([...all.map((e) => e.time)].sort());
    expect(all).toHaveLength(40);
    expect(JSON.stringify(all)).not.toContain('sk-secret-value');
    expect((await exported({ client: 'vscode' })).every((e) => e.client === 'vscode')).toBe(true);
    const byEmail = await exported({ principal: 'alice@x' });
    expect(byEmail).toHaveLength(10);
    expect(byEmail[0]!.principal).toEqual(alice);
    expect(await exported({ principal: 'u-1' })).toEqual(byEmail);
    const since = await exported({ since: new Date(Date.UTC(2026, 0, 1, 12, 30)).toISOString() });
    expect(since.map((e) => new Date(e.time).getUTCMinutes())).toEqual([...Array(10).keys()].map((i) => 30 + i));
  });

  it('exports nothing from a missing log, and refuses a since that is not a date', async () => {
    expect(await exported({})).toEqual([]);
    await expect(exportAudit(dir, { since: 'yesterday' }, () => undefined)).rejects.toMatchObject({
      code: 'invalid_query',
    });
  });
});
