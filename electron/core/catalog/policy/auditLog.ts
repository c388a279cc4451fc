/**
 * The audit log: one JSON line per request that went through the proxy, in
 * `<dir>/audit.jsonl`, rotated to `audit.1.jsonl` ... `audit.<files>.jsonl`.
 * Recording never throws and never waits on the disk: lines are formatted at
 * once (so later changes to the caller's objects do not leak in) and written
 * by one drain loop, in order, gathered for up to WRITE_DELAY_MS (50 ms) so a stream
 * of calls costs one write per batch rather than one per call. Every file operation (writing, rotating,
 * reading for a query) runs on one chain, so a query never sees a file renamed
 * under it.
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { RotatingFiles } from './auditFiles.js';
import { cachedSecretForms } from '../../platform/secrets/secretForms.js';
import type { AuditEntry, AuditKind, AuditOutcome } from './auditEntry.js';
import { parseLine, toLine } from './auditLine.js';

export type { AuditDecision, AuditEntry, AuditKind, AuditOutcome, AuditPrincipal } from './auditEntry.js';

/** A filter over the log; every given field must match. */
export interface AuditQuery {
  client?: string;
  /** The person's subject or email. */
  principal?: string;
  backend?: string;
  outcome?: AuditOutcome;
  kind?: AuditKind;
  /** Entries at or after this time. */
  since?: string | Date;
  /** Entries before this time. */
  until?: string | Date;
  /** Newest first; default 200, at most 5000. */
  limit?: number;
}

/** Where and how much to keep. */
export interface AuditLogOptions {
  /** Directory of the log files (created with mode 0700). */
  dir: string;
  /** Cap of all files together; default 20 MiB. */
  maxBytes?: number;
  /** Rotated files kept besides the active one; default 3. */
  files?: number;
  /**
   * The current secret values (tokens, header values). Every occurrence in a
   * written line becomes `[redacted]`; values under 4 characters are ignored.
   */
  redact?: () => string[];
}

const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
const MAX_CAPTURE_BYTES = 8 * 1024;
/** Entries waiting for the disk beyond which new ones are dropped (and counted). */
const MAX_PENDING = 10_000;
/** The same bound in bytes, so large captured entries cannot pile up either. */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;
/**
 * How long a recorded line may wait to be gathered with the next ones. A write
 * per line cost a file write per proxied call (the profile of bench/hopProfile.ts);
 * a query, flush or close writes what waits at once.
 */
const WRITE_DELAY_MS = 50;
const DEFAULT_LIMIT = 200;
const MAX_LIMIT = 5000;

/** A bounded, rotated, redacted log of requests, queryable newest first. */
export class AuditLog {
  private readonly storage: RotatingFiles;
  /** Cap of one file: with `files` rotated ones besides it, the total stays under maxBytes. */
  private readonly fileBytes: number;
  private readonly captureBytes: number;
  private readonly secretForms: () => string[];
  private pending: string[] = [];
  private pendingBytes = 0;
  /** Dropped entries not yet noted in the log. */
  private unreported = 0;
  private droppedCount = 0;
  private scheduled = false;
  /** The timer that starts the next drain, while lines wait for it. */
  private drainTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private chain: Promise<void> = Promise.resolve();
  private readonly recordListeners = new Set<() => void>();

  /** Nothing touches the disk until the first entry or query. */
  constructor(options: AuditLogOptions) {
    const files = Math.max(0, Math.floor(options.files ?? 3));
    this.fileBytes = Math.floor((options.maxBytes ?? DEFAULT_MAX_BYTES) / (files + 1));
    this.storage = new RotatingFiles(options.dir, files, this.fileBytes);
    this.captureBytes = Math.min(MAX_CAPTURE_BYTES, Math.floor(this.fileBytes / 4));
    this.secretForms = cachedSecretForms(options.redact ?? (() => []));
  }

  /** Entries lost since this log was created: queue full, too large, a failed write, or after close. */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Calls `listener` after each entry is queued (an invalidation, e.g. for the UI's log); returns the unsubscribe function. */
  onRecord(listener: () => void): () => void {
    this.recordListeners.add(listener);
    return () => this.recordListeners.delete(listener);
  }

  /** Queues one entry; never throws and never waits. */
  record(entry: AuditEntry): void {
    if (!this.enqueue(entry)) return;
    // Outside the queueing's try: a throwing listener must not count a queued entry as dropped.
    for (const listener of this.recordListeners) {
      try {
        listener();
      } catch {
        // One broken listener must not stop the others (or the request being logged).
      }
    }
  }

  /** Formats and queues one entry; false when it was dropped. */
  private enqueue(entry: AuditEntry): boolean {
    try {
      if (this.closed) return this.drop(1, false);
      const line = toLine(entry, this.secretForms(), {
        captureBytes: this.captureBytes,
        lineBytes: this.fileBytes,
      });
      if (line === undefined) return this.drop(1);
      if (this.pending.length >= MAX_PENDING || this.pendingBytes + line.length > MAX_PENDING_BYTES) {
        return this.drop(1);
      }
      this.pending.push(line);
      this.pendingBytes += line.length;
      if (!this.scheduled) {
        this.scheduled = true;
        this.drainTimer = setTimeout(() => this.drainNow(), WRITE_DELAY_MS);
        this.drainTimer.unref();
      }
      return true;
    } catch {
      // A throwing redact() or an exotic entry must not break the request being logged.
      return this.drop(1);
    }
  }

  /** Entries matching `q`, newest first (in the order they were recorded). */
  async query(q: AuditQuery = {}): Promise<AuditEntry[]> {
    const since = q.since === undefined ? -Infinity : bound(q.since, 'since');
    const until = q.until === undefined ? Infinity : bound(q.until, 'until');
    const wanted = Number.isFinite(q.limit) ? Math.floor(q.limit as number) : DEFAULT_LIMIT;
    const limit = Math.min(MAX_LIMIT, Math.max(0, wanted));
    const matches = (entry: AuditEntry): boolean => {
      if (q.client !== undefined && entry.client !== q.client) return false;
      if (q.principal !== undefined && !actedFor(entry, q.principal)) return false;
      if (q.backend !== undefined && entry.backend !== q.backend) return false;
      if (q.outcome !== undefined && entry.outcome !== q.outcome) return false;
      if (q.kind !== undefined && entry.kind !== q.kind) return false;
      if (q.since === undefined && q.until === undefined) return true;
      const at = Date.parse(entry.time);
      return at >= since && at < until;
    };
    this.drainNow();
    return this.run(async () => {
      const found: AuditEntry[] = [];
      for await (const text of this.storage.texts()) {
        if (found.length >= limit) break;
        const lines = text.split('\n');
        for (let at = lines.length - 1; at >= 0 && found.length < limit; at--) {
          const entry = parseLine(lines[at] as string);
          if (entry && matches(entry)) found.push(entry);
        }
      }
      return found;
    });
  }

  /** Resolves when everything recorded so far is written and synced to disk. */
  flush(): Promise<void> {
    this.drainNow();
    return this.run(() => this.storage.sync());
  }

  /** Writes what is queued, then closes the file; later entries are dropped. */
  async close(): Promise<void> {
    this.closed = true;
    this.drainNow();
    await this.run(async () => {
      await this.storage.sync();
      await this.storage.close();
    });
  }

  /** Counts `count` lost entries; always false (nothing was queued). */
  private drop(count: number, report = true): false {
    this.droppedCount += count;
    if (report) this.unreported += count;
    return false;
  }

  /** Queues the drain that the timer would start, now (nothing when no lines wait for one). */
  private drainNow(): void {
    if (this.drainTimer === undefined) return;
    clearTimeout(this.drainTimer);
    this.drainTimer = undefined;
    void this.run(() => this.drain());
  }

  /** Runs `task` after every file operation queued before it. */
  private run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.chain.then(task);
    this.chain = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Writes queued lines until none are left; never rejects. */
  private async drain(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending;
        this.pending = [];
        this.pendingBytes = 0;
        let notes = 0;
        if (this.unreported > 0) {
          // Every dropped entry came after the ones in this batch: the note goes last.
          batch.push(this.droppedNote(this.unreported));
          notes = this.unreported;
          this.unreported = 0;
        }
        try {
          await this.storage.append(batch);
        } catch {
          this.drop(batch.length - (notes > 0 ? 1 : 0));
          this.unreported += notes;
          await this.storage.close().catch(() => undefined); // reopen on the next write
        }
      }
    } finally {
      this.scheduled = false;
    }
  }

  private droppedNote(count: number): string {
    const entry: AuditEntry = {
      time: new Date().toISOString(),
      client: '',
      backend: '',
      kind: 'audit/dropped',
      item: 'audit',
      outcome: 'error',
      errorCode: ErrorCode.Dropped,
      durationMs: 0,
      detail: `${count} audit entries were not written (queue full, too large, or a failed write)`,
    };
    return toLine(entry, [], { captureBytes: 0, lineBytes: Infinity }) as string;
  }
}

/** Whether an entry acted for the person named by subject or email. */
export function actedFor(entry: AuditEntry, principal: string): boolean {
  return entry.principal?.subject === principal || entry.principal?.email === principal;
}

/** A query bound as milliseconds; an unparseable one is refused rather than silently ignored. */
function bound(value: string | Date, field: string): number {
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(ms)) {
    throw new SwitchboardError(ErrorCode.InvalidQuery, `audit query: ${field} is not a date: ${String(value)}`);
  }
  return ms;
}
