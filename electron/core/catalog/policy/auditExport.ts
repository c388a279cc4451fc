/**
 * The audit log as JSON lines for a SIEM (`mcp-switchboard audit export`):
 * every entry of the log's files, oldest first, filtered by time, client
 * profile and person. The lines are the log's own, already redacted and
 * bounded when they were written; a line that does not parse (a crash
 * mid-write) is skipped. Files are read one at a time, so memory stays within
 * one file's cap. A running Switchboard may rotate the files meanwhile: an
 * entry written during an export may be missed or, rarely, appear twice.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { AuditEntry } from './auditEntry.js';
import { parseLine } from './auditLine.js';
import { actedFor } from './auditLog.js';

/** What to export; every given field must match. */
export interface AuditExportFilter {
  /** Entries at or after this time (ISO 8601). */
  since?: string | undefined;
  /** One client profile. */
  client?: string | undefined;
  /** One person, by subject or email. */
  principal?: string | undefined;
}

/** The log's files, oldest first: `audit.<n>.jsonl` from the highest n down, then `audit.jsonl`. */
async function filesOldestFirst(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const rotated = names
    .map((name) => ({ name, index: /^audit\.(\d+)\.jsonl$/.exec(name)?.[1] }))
    .filter((file): file is { name: string; index: string } => file.index !== undefined)
    .sort((a, b) => Number(b.index) - Number(a.index))
    .map((file) => file.name);
  return [...rotated, ...(names.includes('audit.jsonl') ? ['audit.jsonl'] : [])].map((name) => join(dir, name));
}

/** The filter as a test of one entry; an unparseable `since` is refused. */
function matcher(filter: AuditExportFilter): (entry: AuditEntry) => boolean {
  const since = filter.since === undefined ? -Infinity : Date.parse(filter.since);
  if (Number.isNaN(since)) {
    throw new SwitchboardError(ErrorCode.InvalidQuery, `--since is not a date: ${filter.since}`, { field: 'since' });
  }
  return (entry) =>
    (filter.client === undefined || entry.client === filter.client) &&
    (filter.principal === undefined || actedFor(entry, filter.principal)) &&
    (filter.since === undefined || Date.parse(entry.time) >= since);
}

/**
 * Writes each matching entry of the log in `dir` as one JSON line, oldest
 * first, through `write`; resolves to how many were written.
 */
export async function exportAudit(
  dir: string,
  filter: AuditExportFilter,
  write: (line: string) => void | Promise<void>,
): Promise<number> {
  const matches = matcher(filter);
  let count = 0;
  for (const file of await filesOldestFirst(dir)) {
    const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return ''; // rotated away meanwhile
      throw error;
    });
    for (const line of text.split('\n')) {
      const entry = parseLine(line);
      if (!entry || !matches(entry)) continue;
      await write(`${JSON.stringify(entry)}\n`);
      count++;
    }
  }
  return count;
}
