/**
 * The server approvals file's format (`server-approvals.json`, beside
 * tool-pins.json): per server, the hash of the launch line the user approved,
 * that launch line with its secrets masked (to show what changed; never a
 * secret: a URL's query values and password, a secret-looking flag's value are
 * `****`) and when; the servers the user put back under review; and the
 * servers the user chose to start unsandboxed while quarantined, for the
 * launch line they chose it for. Version 1 (before version 2) kept the launch
 * line in plain text: it is read, masked and written again as version 2.
 * Anything else in the file is refused rather than guessed at: a silently
 * emptied file would quarantine every server, a silently widened one would
 * trust them.
 */
import { z } from 'zod';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { LaunchLineView } from '../../../../shared/model/reviewViews.js';
import { inspectArgs, inspectUrl } from '../../platform/config/inlineSecrets.js';

/** One server's approval. */
export interface ApprovalRecord {
  hash: string;
  /** The launch line approved, its secrets masked (maskedLaunch). */
  launch: LaunchLineView;
  approvedAt: string;
}

/** A recorded choice of the user's about one server, for one launch line (its hash). */
export interface ChoiceRecord {
  hash?: string;
  at: string;
}

/** Everything the file holds. */
export interface ApprovalsState {
  approvals: Map<string, ApprovalRecord>;
  /** Servers the user put back under review ("Quarantine again"), until approved again. */
  held: Map<string, ChoiceRecord>;
  /** Quarantined servers the user chose to start unsandboxed where no sandbox runs (for that launch line). */
  unsandboxed: Map<string, ChoiceRecord>;
  /** Tools the user held when approving their server (`--hold-flagged`), until approved one by one. */
  heldTools: Map<string, string[]>;
}

/** One server's part of the state (replicas share it in Redis, one entry per server). */
export interface ServerEntry {
  approval?: ApprovalRecord;
  held?: ChoiceRecord;
  unsandboxed?: ChoiceRecord;
  heldTools?: string[];
}

/** The file's current version. */
export const APPROVALS_VERSION = 2;

const Record_ = z.object({
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  launch: z.object({ transport: z.string() }).loose(),
  approvedAt: z.string(),
});
const Choice = z.object({
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  at: z.string(),
});

const ApprovalFile = z.discriminatedUnion('version', [
  z.object({ version: z.literal(1), servers: z.record(z.string(), Record_) }),
  z.object({
    version: z.literal(2),
    servers: z.record(z.string(), Record_),
    held: z.record(z.string(), Choice).default({}),
    startUnsandboxed: z.record(z.string(), Choice).default({}),
    heldTools: z.record(z.string(), z.array(z.string())).default({}),
  }),
]);

const Entry = z.object({
  approval: Record_.optional(),
  held: Choice.optional(),
  unsandboxed: Choice.optional(),
  heldTools: z.array(z.string()).optional(),
});

/** A server's entry as replicas share it (JSON; undefined: nothing recorded). */
export function formatEntry(entry: ServerEntry): string {
  return JSON.stringify({
    ...entry,
    ...(entry.approval ? { approval: { ...entry.approval, launch: maskedLaunch(entry.approval.launch) } } : {}),
  });
}

/** A shared entry's text, checked; throws `config_invalid` naming the server. */
export function parseEntry(text: string, server: string): ServerEntry {
  const parsed = Entry.safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new SwitchboardError(
      ErrorCode.ConfigInvalid,
      `the shared approval of ${server} is not valid: ${z.prettifyError(parsed.error)}`,
    );
  const { approval, held, unsandboxed, heldTools } = parsed.data;
  return {
    ...(approval ? { approval: { ...approval, launch: maskedLaunch(approval.launch as LaunchLineView) } } : {}),
    ...(held ? { held } : {}),
    ...(unsandboxed ? { unsandboxed } : {}),
    ...(heldTools ? { heldTools } : {}),
  };
}

/** One server's entry of the state (undefined: nothing recorded for it). */
export function entryOf(state: ApprovalsState, server: string): ServerEntry | undefined {
  const approval = state.approvals.get(server);
  const held = state.held.get(server);
  const unsandboxed = state.unsandboxed.get(server);
  const heldTools = state.heldTools.get(server);
  if (!approval && !held && !unsandboxed && !heldTools) return undefined;
  return {
    ...(approval ? { approval } : {}),
    ...(held ? { held } : {}),
    ...(unsandboxed ? { unsandboxed } : {}),
    ...(heldTools ? { heldTools } : {}),
  };
}

/** Sets (or, undefined, clears) one server's entry of the state, in place. */
export function setEntry(state: ApprovalsState, server: string, entry: ServerEntry | undefined): void {
  const put = <T>(map: Map<string, T>, value: T | undefined) =>
    value === undefined ? map.delete(server) : map.set(server, value);
  put(state.approvals, entry?.approval);
  put(state.held, entry?.held);
  put(state.unsandboxed, entry?.unsandboxed);
  put(state.heldTools, entry?.heldTools);
}

/** A launch line with the secrets of its URL and arguments masked (`****`), as the backups mask them. */
export function maskedLaunch(line: LaunchLineView): LaunchLineView {
  return {
    ...line,
    ...(line.url !== undefined ? { url: inspectUrl(line.url).masked } : {}),
    ...(line.args !== undefined ? { args: inspectArgs(line.args).masked } : {}),
  };
}

/** Parses the file's text; throws `config_invalid` naming the file. `migrated`: it was an older version. */
export function parseApprovals(text: string, file: string): ApprovalsState & { migrated: boolean } {
  let parsed: z.infer<typeof ApprovalFile>;
  try {
    parsed = ApprovalFile.parse(JSON.parse(text));
  } catch (error) {
    const reason = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message;
    throw new SwitchboardError(ErrorCode.ConfigInvalid, `${file}: not a valid server approvals file: ${reason}`, {
      path: file,
    });
  }
  const approvals = new Map(
    Object.entries(parsed.servers).map(([server, record]) => [
      server,
      { hash: record.hash, launch: maskedLaunch(record.launch as LaunchLineView), approvedAt: record.approvedAt },
    ]),
  );
  const choices = (map: Record<string, z.infer<typeof Choice>>): Map<string, ChoiceRecord> =>
    new Map(Object.entries(map).map(([server, choice]) => [server, { ...choice }]));
  if (parsed.version === 1)
    return { approvals, held: new Map(), unsandboxed: new Map(), heldTools: new Map(), migrated: true };
  return {
    approvals,
    held: choices(parsed.held),
    unsandboxed: choices(parsed.startUnsandboxed),
    heldTools: new Map(Object.entries(parsed.heldTools).map(([server, tools]) => [server, [...tools]])),
    migrated: false,
  };
}

/** The file's text (always the current version). */
export function formatApprovals(state: ApprovalsState): string {
  const servers = Object.fromEntries(
    [...state.approvals].map(([server, record]) => [server, { ...record, launch: maskedLaunch(record.launch) }]),
  );
  return `${JSON.stringify(
    {
      version: APPROVALS_VERSION,
      servers,
      held: Object.fromEntries(state.held),
      startUnsandboxed: Object.fromEntries(state.unsandboxed),
      heldTools: Object.fromEntries(state.heldTools),
    },
    null,
    2,
  )}\n`;
}
