/**
 * Quarantine and reviewed changes, as the contract, the CLI and health show
 * them: the launch line a server was approved with, its review state, each
 * item with the scan's findings, and the tool changes held for approval with
 * what changed. Plain data (no secret: environment variables and headers are
 * named, never valued).
 */
import type { FieldDiff } from './definitionDiff.js';
import type { ScanFinding, ScanItemKind, ScanReport, ScanSeverity } from './scanViews.js';

/** A stdio server's sandbox as reviewed (its own setting; absent: it follows `proxy.defaultSandbox`). */
export interface SandboxView {
  enabled: boolean;
  read: string[];
  write: string[];
  network: 'none' | 'all' | string[];
}

/**
 * What starts or reaches a server: what an approval covers (its hash). A
 * change of any of these after approval sends the server back to quarantine.
 */
export interface LaunchLineView {
  transport: string;
  command?: string;
  args?: string[];
  /** Names of the environment variables it is given (never their values). */
  envKeys?: string[];
  cwd?: string;
  url?: string;
  /** Names of the HTTP headers it is sent (never their values). */
  headerKeys?: string[];
  /** Its own sandbox setting; `null`: none of its own (the proxy's `defaultSandbox` applies). */
  sandbox?: SandboxView | null;
}

/**
 * Why a server is quarantined: never approved; approved, but its launch line
 * changed since; never approved and a high-severity finding keeps it (even
 * with `proxy.quarantine` off); or the user put it back under review
 * ("Quarantine again").
 */
export type QuarantineReason = 'new' | 'launch-changed' | 'high-finding' | 'requested';

/** A server's review state, for health and lists. */
export interface ReviewStateView {
  /** Its items are hidden from every client until it is approved. */
  quarantined: boolean;
  reason?: QuarantineReason;
  /** When its current launch line was approved (ISO time). */
  approvedAt?: string;
  /** Tool changes held until approved. */
  pending: number;
}

/** A scan summary, for health and lists. */
export interface ScanSummaryView {
  scannedAt: string;
  findings: number;
  highest?: ScanSeverity;
}

/** One item of a server with the scan's findings about it. */
export interface ReviewItemView {
  kind: ScanItemKind;
  /** The server's own name (a URI or URI template for resources). */
  name: string;
  description?: string;
  findings: ScanFinding[];
  /** The whole text of each field its findings are about, by dotted path (the span is in this text). */
  texts?: Record<string, string>;
}

/** A tool change held for approval: the approved definition (absent: a new tool held for its findings), the new one, and what changed. */
export interface PendingChangeView {
  tool: string;
  detectedAt: string;
  approved?: Record<string, unknown>;
  offered: Record<string, unknown>;
  diff: FieldDiff[];
  findings: ScanFinding[];
  /** The whole text of each field of the offered definition its findings are about, by dotted path. */
  texts?: Record<string, string>;
}

/** One server's review: what the review screen, `review <id>` and `reviews.get` show. */
export interface ServerReviewView extends ReviewStateView {
  server: string;
  /** Whether `proxy.quarantine` is on. */
  quarantineOn: boolean;
  launch: LaunchLineView;
  /** The launch line last approved, when it differs from the current one. */
  approvedLaunch?: LaunchLineView;
  items: ReviewItemView[];
  changes: PendingChangeView[];
  scan?: ScanReport;
}

/** One server in `reviews.list`. */
export interface ServerReviewSummary extends ReviewStateView {
  server: string;
  scan?: ScanSummaryView;
}
