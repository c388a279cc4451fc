/**
 * What `audit export` takes and says in `--help`: the one declaration the
 * parser checks options against and the help is printed from. Imports
 * nothing heavy, so `<command> --help` answers before the core loads.
 */
import type { CommandSpec } from '../command.js';

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
