/**
 * The request log as JSON lines (one entry per line), saved as a download.
 */
import type { LogEntryView } from '../../../../shared/model/views.js';

/** `entries` as JSON lines, oldest first, ending with a newline. */
export function toJsonLines(entries: LogEntryView[]): string {
  const oldestFirst = [...entries].sort((a, b) => a.time.localeCompare(b.time));
  return oldestFirst.map((entry) => JSON.stringify(entry)).join('\n') + (entries.length > 0 ? '\n' : '');
}

/** Saves `entries` as `switchboard-log-<time>.jsonl`. */
export function downloadJsonLines(entries: LogEntryView[]): void {
  const url = URL.createObjectURL(new Blob([toJsonLines(entries)], { type: 'application/x-ndjson' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `switchboard-log-${new Date().toISOString().replace(/[:.]/g, '-')}.jsonl`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
