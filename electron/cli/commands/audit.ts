/**
 * `mcp-switchboard audit export`: the audit log's entries as JSON lines for a
 * SIEM, from the log's files (core/catalog/policy/auditExport.ts), to stdout
 * or to a file only the user can read. It reads the files directly, so it
 * works whether or not Switchboard runs.
 */
import { once } from 'node:events';
import { open } from 'node:fs/promises';
import { defaultAuditDir } from '../../core/platform/index.js';
import { exportAudit, type AuditExportFilter } from '../../core/catalog/index.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { stdio, type Write } from '../io.js';

/** The command, in help order. */
export const auditSpecs: readonly CommandSpec[] = [
  {
    name: 'audit',
    usage: ['audit export [--since ISO] [--client ID] [--principal P] [--out FILE]'],
    text: ['The audit log as JSON lines (one entry per line, oldest first), for a SIEM.'],
    options: {
      since: 'Only entries at or after this time (ISO 8601, e.g. 2026-12-01T00:00:00Z).',
      client: 'Only entries of this client profile (local: the main token).',
      principal: 'Only entries acting for this signed-in person (subject or email; gateway mode).',
      out: 'Write to this file (created readable by you only) instead of stdout.',
    },
    examples: ['audit export --since 2026-12-01T00:00:00Z --out audit.jsonl', 'audit export --client cursor'],
  },
];

const USAGE = 'usage: mcp-switchboard audit export [--since ISO] [--client ID] [--principal P] [--out FILE]\n';

/** Lines gathered before one write to the output file. */
const CHUNK_CHARS = 64 * 1024;

/** What the command needs from the CLI. */
export interface AuditCommandContext {
  /** The audit log's directory. */
  dir: string;
  /** Where the lines go without --out; may wait (stdout's backpressure). */
  out: (text: string) => void | Promise<void>;
  err: Write;
}

/** Runs `audit <action>`; resolves to the exit code (2 for a usage error). */
export async function auditCommand(
  context: AuditCommandContext,
  action: string | undefined,
  filter: AuditExportFilter,
  outFile: string | undefined,
): Promise<0 | 1 | 2> {
  if (action !== 'export') {
    context.err(USAGE);
    return 2;
  }
  if (filter.since !== undefined && Number.isNaN(Date.parse(filter.since))) {
    context.err(`mcp-switchboard: --since must be a date and time (ISO 8601), not "${filter.since}"\n`);
    return 2;
  }
  if (outFile === undefined) {
    await exportAudit(context.dir, filter, context.out);
    return 0;
  }
  const count = await exportToFile(context.dir, filter, outFile);
  context.err(`Wrote ${count} audit entr${count === 1 ? 'y' : 'ies'} to ${outFile}\n`);
  return 0;
}

/** Exports into `file` (mode 0600: the log says who called what), in chunks. */
async function exportToFile(dir: string, filter: AuditExportFilter, file: string): Promise<number> {
  const handle = await open(file, 'w', 0o600);
  try {
    let chunk = '';
    const count = await exportAudit(dir, filter, async (line) => {
      chunk += line;
      if (chunk.length < CHUNK_CHARS) return;
      await handle.write(chunk);
      chunk = '';
    });
    if (chunk) await handle.write(chunk);
    return count;
  } finally {
    await handle.close();
  }
}

/** Writes to stdout, waiting while it is behind (a pipe to a slow reader), so memory stays bounded. */
function toStdout(text: string): Promise<void> | undefined {
  return process.stdout.write(text) ? undefined : once(process.stdout, 'drain').then(() => undefined);
}

/** The `audit` command. */
export const auditCli: CliCommand = {
  section: 'review',
  positionals: true,
  commands: auditSpecs,
  run: ({ positionals, values }) =>
    auditCommand(
      { dir: defaultAuditDir(), err: stdio().err, out: toStdout },
      positionals[0],
      { since: values.since, client: values.client, principal: values.principal },
      values.out,
    ),
};
