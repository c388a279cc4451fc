/**
 * The server approvals file's format (`server-approvals.json`, beside
 * tool-pins.json): per server, the hash of the launch line the user approved,
 * that launch line (to show what changed) and when. Anything else in the file
 * is refused rather than guessed at: a silently emptied file would quarantine
 * every server, a silently widened one would trust them.
 */
import { z } from 'zod';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { LaunchLineView } from '../../../../shared/model/reviewViews.js';

/** One server's approval. */
export interface ApprovalRecord {
  hash: string;
  launch: LaunchLineView;
  approvedAt: string;
}

const ApprovalFile = z.object({
  version: z.literal(1),
  servers: z.record(
    z.string(),
    z.object({
      hash: z.string().regex(/^[0-9a-f]{64}$/),
      launch: z.object({ transport: z.string() }).loose(),
      approvedAt: z.string(),
    }),
  ),
});

/** Parses the file's text; throws `config_invalid` naming the file. */
export function parseApprovals(text: string, file: string): Map<string, ApprovalRecord> {
  let parsed: z.infer<typeof ApprovalFile>;
  try {
    parsed = ApprovalFile.parse(JSON.parse(text));
  } catch (error) {
    const reason = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message;
    throw new SwitchboardError(ErrorCode.ConfigInvalid, `${file}: not a valid server approvals file: ${reason}`, {
      path: file,
    });
  }
  return new Map(
    Object.entries(parsed.servers).map(([server, record]) => [
      server,
      { hash: record.hash, launch: record.launch as LaunchLineView, approvedAt: record.approvedAt },
    ]),
  );
}

/** The file's text for a set of approvals. */
export function formatApprovals(all: ReadonlyMap<string, ApprovalRecord>): string {
  return `${JSON.stringify({ version: 1, servers: Object.fromEntries(all) }, null, 2)}\n`;
}
