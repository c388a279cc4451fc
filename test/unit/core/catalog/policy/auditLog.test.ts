/**
 * The audit log against real files in a temp dir: filters, order, rotation
 * under a byte cap, redaction of secrets (checked on every byte written),
 * corrupt lines, permissions and the bounded queue.
 */
import { mkdtemp, readFile, readdir, rm, stat, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuditLog, type AuditEntry } from '../../../../../electron/core/catalog/policy/auditLog.js';
import { RotatingFiles } from '../../../../../electron/core/catalog/policy/auditFiles.js';

/** An entry with defaults; `minute` sets a distinct, increasing time. */
function entry(overrides: Partial<AuditEntry> & { minute?: number } = {}): AuditEntry {
  const { minute = 0, ...rest } = overrides;
  return {
    time: new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString(),
    client: 'local',
    backend: 'fs',
    kind: 'tools/call',
    item: 'read_file',
    outcome: 'ok',
    durationMs: 5,
    ...rest,
  };
}

describe('AuditLog', () => {
  let dir: string;
  let log: AuditLog | undefined;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-audit-'));
  });
  afterEach(async () => {
    await log?.close();
    log = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  /** Every byte of every file in the log directory. */
  async function allBytes(): Promise<Buffer> {
    const names = await readdir(dir);
    return Buffer.concat(await Promise.all(names.map((name) => readFile(join(dir, name)))));
  }

  it('records entries and filters them by client, backend, outcome, kind and time', async () => {
    log = new AuditLog({ dir });
    log.record(entry({ minute: 1, client: 'cursor', backend: 'fs', outcome: 'ok' }));
    log.record(entry({ minute: 2, client: 'claude', backend: 'github', outcome: 'error', errorCode: -32603 }));
    log.record(entry({ minute: 3, client: 'cursor', backend: 'github', outcome: 'denied', kind: 'prompts/get' }));
    log.record(entry({ minute: 4, client: 'claude', backend: 'fs', outcome: 'timeout', kind: 'resources/read' }));
    log.record(entry({ minute: 5, client: 'cursor', backend: 'fs', outcome: 'cancelled' }));

    const minutes = (entries: AuditEntry[]) => entries.map((e) => new Date(e.time).getUTCMinutes());
    expect(minutes(await log.query())).toEqual([5, 4, 3, 2, 1]);
    expect(minutes(await log.query({ client: 'cursor' }))).toEqual([5, 3, 1]);
    expect(minutes(await log.query({ backend: 'github' }))).toEqual([3, 2]);
    expect(minutes(await log.query({ outcome: 'timeout' }))).toEqual([4]);
    expect(minutes(await log.query({ kind: 'prompts/get' }))).toEqual([3]);
    expect(minutes(await log.query({ client: 'cursor', backend: 'fs' }))).toEqual([5, 1]);
    const since = new Date(Date.UTC(2026, 0, 1, 12, 2));
    expect(minutes(await log.query({ since }))).toEqual([5, 4, 3, 2]);
    expect(minutes(await log.query({ since: since.toISOString(), until: '2026-01-01T12:04:00.000Z' }))).toEqual([3, 2]);
    const [error] = await log.query({ outcome: 'error' });
    expect(error).toEqual(
      entry({ minute: 2, client: 'claude', backend: 'github', outcome: 'error', errorCode: -32603 }),
    );
  });

  it('writes a stream of entries to the file on its own, in order, gathered into few writes', async () => {
    log = new AuditLog({ dir });
    const appends = vi.spyOn(RotatingFiles.prototype, 'append');
    for (let minute = 0; minute < 50; minute++) {
      log.record(entry({ minute }));
      await new Promise((resolve) => setImmediate(resolve)); // one entry per turn of the event loop, as calls finish
    }
    // No query, flush or close: the lines still reach the disk by themselves.
    const written = async (): Promise<string[]> => (await allBytes()).toString().split('\n').filter(Boolean);
    await vi.waitFor(async () => expect(await written()).toHaveLength(50), { timeout: 2000 });
    const minutes = (await written()).map((line) => new Date((JSON.parse(line) as AuditEntry).time).getUTCMinutes());
    expect(minutes).toEqual(Array.from({ length: 50 }, (_, minute) => minute));
    // A write per entry cost a file write per proxied call; entries now share writes.
    expect(appends.mock.calls.length).toBeLessThan(10);
    appends.mockRestore();
  });

  it('returns the newest entries first, up to the limit', async () => {
    log = new AuditLog({ dir });
    for (let i = 0; i < 300; i++) log.record(entry({ item: `tool-${i}` }));
    const items = (entries: AuditEntry[]) => entries.map((e) => e.item);
    expect(items(await log.query({ limit: 3 }))).toEqual(['tool-299', 'tool-298', 'tool-297']);
    expect(await log.query()).toHaveLength(200); // the default limit
    expect(await log.query({ limit: 10_000 })).toHaveLength(300);
  });

  it('refuses a time bound that is not a date', async () => {
    log = new AuditLog({ dir });
    await expect(log.query({ since: 'yesterday' })).rejects.toMatchObject({ code: 'invalid_query' });
  });

  it('rotates at the cap: the total stays under maxBytes, the oldest entries go, the newest stay', async () => {
    const maxBytes = 4096;
    log = new AuditLog({ dir, maxBytes, files: 3 });
    for (let i = 0; i < 200; i++) log.record(entry({ item: `item-${i}`, detail: 'x'.repeat(40) }));
    await log.flush();

    const names = (await readdir(dir)).sort();
    expect(names).toEqual(['audit.1.jsonl', 'audit.2.jsonl', 'audit.3.jsonl', 'audit.jsonl']);
    const sizes = await Promise.all(names.map(async (name) => (await stat(join(dir, name))).size));
    for (const size of sizes) expect(size).toBeLessThanOrEqual(maxBytes / 4);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(maxBytes);

    const items = (await log.query({ limit: 5000 })).map((e) => e.item);
    expect(items[0]).toBe('item-199');
    expect(items).not.toContain('item-0');
    // What is kept is a contiguous run of the newest entries.
    const oldest = Number(items.at(-1)?.slice(5));
    expect(items).toEqual(Array.from({ length: 200 - oldest }, (_, i) => `item-${199 - i}`));
  });

  it('truncates captured arguments and results, with a marker', async () => {
    log = new AuditLog({ dir });
    const huge = { rows: Array.from({ length: 5000 }, (_, i) => ({ id: i, text: 'lorem ipsum' })) };
    log.record(entry({ arguments: { path: '/tmp/a' }, result: huge }));
    const [found] = await log.query();
    expect(found?.arguments).toEqual({ path: '/tmp/a' });
    const marker = found?.result as { $truncated: boolean; bytes: number; preview: string };
    expect(marker.$truncated).toBe(true);
    expect(marker.bytes).toBe(Buffer.byteLength(JSON.stringify(huge)));
    expect(Buffer.byteLength(JSON.stringify(marker))).toBeLessThanOrEqual(8192);
    expect((await allBytes()).length).toBeLessThan(10_000);
  });

  it('never writes a secret, wherever it appears in an entry', async () => {
    const secrets = [
      'tok-SECRET-1234567890',
      'hdr-VALUE-abcdefgh',
      'quo"te\\secret-zz',
      `long-${'q'.repeat(45)}`,
    ] as const;
    log = new AuditLog({ dir, redact: () => [...secrets, '1'] });
    log.record(
      entry({
        item: `file:///${secrets[0]}`,
        errorCode: `bad ${secrets[1]}`,
        detail: `Authorization: Bearer ${secrets[0]}`,
        arguments: { headers: { 'X-Key': secrets[1], [secrets[0]]: 'as a key' }, list: [secrets[2], 7] },
        result: { content: [{ type: 'text', text: `echo ${secrets[2]} ${secrets[0]}` }] },
      }),
    );
    // A large capture, with a secret straddling the truncation point and more beyond it.
    const long = `${'a'.repeat(8185)}${secrets[0]}${'b'.repeat(100)}${secrets[1]}${'c'.repeat(9000)}`;
    log.record(entry({ result: long, arguments: long }));
    // Long secrets shrink the kept head when redacted, so the cut itself (not a later shrink) ends the
    // preview; slide another secret across that cut.
    for (let pad = 20; pad <= 110; pad += 3) {
      log.record(
        entry({
          item: 'slide',
          result: `${secrets[3].repeat(163)}${'a'.repeat(pad)}${secrets[0]}${'c'.repeat(9000)}`,
        }),
      );
    }
    await log.flush();

    const bytes = await allBytes();
    expect(bytes.includes('[redacted]')).toBe(true);
    for (const secret of secrets) {
      expect(bytes.includes(secret)).toBe(false);
      expect(bytes.includes(JSON.stringify(secret).slice(1, -1))).toBe(false);
      expect(bytes.includes(secret.slice(0, 5))).toBe(false); // not even the head of one
    }
    // Values under 4 characters are not secrets: "1" is not removed from ordinary text.
    const [first, second] = await log
      .query({ kind: 'tools/call', limit: 5000 })
      .then((all) => all.filter((e) => e.item !== 'slide'));
    expect(second?.arguments).toEqual({
      headers: { 'X-Key': '[redacted]', '[redacted]': 'as a key' },
      list: ['[redacted]', 7],
    });
    expect(second?.time).toBe(entry().time);
    expect(first?.result).toMatchObject({ $truncated: true });
  });

  it('skips corrupt and truncated lines, and never glues a new entry onto a partial one', async () => {
    log = new AuditLog({ dir });
    log.record(entry({ item: 'before' }));
    await log.close();
    await appendFile(join(dir, 'audit.jsonl'), 'not json at all\n[1,2]\n{"time":"2026-01-01T00:00:00Z","cli');

    log = new AuditLog({ dir });
    expect((await log.query()).map((e) => e.item)).toEqual(['before']);
    log.record(entry({ item: 'after' }));
    expect((await log.query()).map((e) => e.item)).toEqual(['after', 'before']);
  });

  it.skipIf(process.platform === 'win32')('creates its directory 0700 and files 0600', async () => {
    const sub = join(dir, 'audit');
    log = new AuditLog({ dir: sub, maxBytes: 2048, files: 1 });
    for (let i = 0; i < 50; i++) log.record(entry({ item: `item-${i}` }));
    await log.flush();
    expect((await stat(sub)).mode & 0o777).toBe(0o700);
    const names = await readdir(sub);
    expect(names.sort()).toEqual(['audit.1.jsonl', 'audit.jsonl']);
    for (const name of names) expect((await stat(join(sub, name))).mode & 0o777).toBe(0o600);
  });

  it('drops entries beyond the queue bound, counts them and notes them in the log', async () => {
    log = new AuditLog({ dir });
    for (let i = 0; i < 10_005; i++) log.record(entry({ item: `item-${i}` }));
    expect(log.dropped).toBe(5);
    await log.flush();
    const [note] = await log.query({ kind: 'audit/dropped' });
    expect(note?.detail).toMatch(/^5 audit entries were not written/);
    expect((await log.query({ limit: 1 }))[0]?.kind).toBe('audit/dropped');
    expect(await log.query({ kind: 'tools/call', limit: 5000 })).toHaveLength(5000);
  });

  it('never throws from record, even for unserializable entries or a failing redact()', async () => {
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    log = new AuditLog({ dir });
    expect(() => log?.record(entry({ arguments: circular, result: 10n }))).not.toThrow();
    const failing = new AuditLog({
      dir,
      redact: () => {
        throw new Error('no secrets today');
      },
    });
    expect(() => failing.record(entry())).not.toThrow();
    expect(failing.dropped).toBe(1);
    await failing.close();
    const [found] = await log.query();
    expect(found?.arguments).toMatch(/^\[not serializable: /);
  });

  it('keeps writing after a failed write, and counts what was lost', async () => {
    // A file where the directory should be: every write fails.
    const blocked = join(dir, 'blocked');
    await writeFile(blocked, '');
    log = new AuditLog({ dir: blocked });
    log.record(entry());
    await log.flush();
    expect(log.dropped).toBe(1);
    await rm(blocked);
    log.record(entry({ item: 'later' }));
    await log.flush();
    const items = (await log.query()).map((e) => e.item);
    expect(items).toEqual(['audit', 'later']);
  });
});

describe('AuditLog record listeners', () => {
  const entry: AuditEntry = {
    time: new Date().toISOString(),
    client: 'local',
    backend: 'b',
    kind: 'tools/call',
    item: 't',
    outcome: 'ok',
    durationMs: 1,
  };

  it('a throwing listener neither drops the queued entry nor stops the other listeners', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sb-audit-listeners-'));
    try {
      const log = new AuditLog({ dir });
      const after = vi.fn();
      log.onRecord(() => {
        throw new Error('broken listener');
      });
      log.onRecord(after);
      log.record(entry);
      log.record(entry);
      expect(after).toHaveBeenCalledTimes(2);
      expect(log.dropped).toBe(0);
      await log.flush();
      const found = await log.query();
      expect(found).toHaveLength(2);
      expect(found.some((e) => e.kind === 'audit/dropped')).toBe(false);
      await log.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
