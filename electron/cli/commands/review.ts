/**
 * Quarantine and reviewed changes on the command line: `review <id>` (the
 * launch line, the sandbox, each item with the scan's findings, the held
 * changes with their diffs), `approve <id> [--tool NAME]` (a quarantined
 * server, or one held change) and `scan [id]` (the scan's findings). They ask
 * the running Switchboard (it holds the scan and the held changes in memory),
 * over its UI bridge with the main token, and say so when none runs.
 */
import { unifiedDiffLines } from '../../../shared/model/definitionDiff.js';
import type { LaunchLineView, PendingChangeView, ServerReviewView } from '../../../shared/model/reviewViews.js';
import type { ScanFinding, ScanReport } from '../../../shared/model/scanViews.js';
import { defaultConfigDir, defaultStateDir } from '../../core/platform/index.js';
import { JSON_OUTPUT } from '../optionHelp.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { askRunning, type RunningCommandContext } from '../askRunning.js';
import { stdio } from '../io.js';
import { callRunning } from '../runningBridge.js';

/** The commands, in help order. */
export const reviewSpecs: readonly CommandSpec[] = [
  {
    name: 'review',
    usage: ['review <id> [--json]'],
    text: [
      "A server's review: its command, arguments and sandbox, each tool with the scan's findings,",
      'and the changed definitions held for approval, as a unified diff.',
    ],
    options: { ...JSON_OUTPUT },
    examples: ['review github', 'review github --json'],
  },
  {
    name: 'approve',
    usage: ['approve <id> [--tool NAME]'],
    text: ['Approve a quarantined server (its items are served at once), or one held tool change.'],
    options: { tool: "Approve only this tool's held change, not the whole server." },
    examples: ['approve github', 'approve github --tool create_issue'],
  },
  {
    name: 'scan',
    usage: ['scan [id] [--json]'],
    text: ["The poisoning scan's findings; exit 1 when one is high-severity, 3 when none could be asked."],
    options: { ...JSON_OUTPUT },
    examples: ['scan', 'scan github --json'],
  },
];

/** Exit code of `scan` when the running Switchboard could not be asked (1 means a high-severity finding). */
export const SCAN_UNREACHABLE = 3;

/** What the commands need from the CLI. */
export type ReviewCommandContext = RunningCommandContext;

function launchLines(launch: LaunchLineView): string[] {
  const lines = [`  transport: ${launch.transport}`];
  if (launch.url !== undefined) lines.push(`  url:       ${launch.url}`);
  if (launch.command !== undefined) lines.push(`  command:   ${launch.command}`);
  if (launch.args?.length) lines.push(`  args:      ${launch.args.map(quoted).join(' ')}`);
  if (launch.envKeys?.length) lines.push(`  env:       ${launch.envKeys.join(', ')} (values not shown)`);
  if (launch.headerKeys?.length) lines.push(`  headers:   ${launch.headerKeys.join(', ')} (values not shown)`);
  if (launch.cwd !== undefined) lines.push(`  cwd:       ${launch.cwd}`);
  if (launch.sandbox !== undefined) lines.push(`  sandbox:   ${sandboxText(launch.sandbox)}`);
  return lines;
}

function quoted(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : JSON.stringify(arg);
}

function sandboxText(sandbox: LaunchLineView['sandbox']): string {
  if (!sandbox) return 'its own: none (proxy.defaultSandbox applies)';
  if (!sandbox.enabled) return 'off';
  const network = Array.isArray(sandbox.network) ? sandbox.network.join(', ') : sandbox.network;
  const read = sandbox.read.length ? sandbox.read.join(', ') : 'defaults';
  const write = sandbox.write.length ? sandbox.write.join(', ') : 'defaults';
  return `on; read: ${read}; write: ${write}; network: ${network}`;
}

function findingLine(finding: ScanFinding): string {
  const span = `${finding.field}[${finding.span.start},${finding.span.end}]`;
  return `${finding.severity.toUpperCase()} ${finding.rule} at ${span} "${finding.excerpt}": ${finding.message}`;
}

function stateLine(review: ServerReviewView): string {
  if (review.quarantined) {
    const why = {
      new: 'never approved',
      'launch-changed': 'its launch line changed since it was approved',
      'high-finding': 'never approved, and the scan found something high-severity',
    }[review.reason ?? 'new'];
    return `QUARANTINED (${why}): its tools, prompts and resources are hidden from every client`;
  }
  if (review.approvedAt) return `approved ${review.approvedAt}`;
  return review.quarantineOn ? 'served' : 'served (quarantine is off)';
}

function changeLines(change: PendingChangeView): string[] {
  const what = change.approved ? 'changed definition' : 'new tool held for its findings';
  const lines = [`  tool ${change.tool}: ${what} (detected ${change.detectedAt})`];
  for (const diff of change.diff) lines.push(...unifiedDiffLines(diff).map((line) => `    ${line}`));
  for (const finding of change.findings) lines.push(`    ${findingLine(finding)}`);
  return lines;
}

/** A review as text for people. */
export function reviewText(review: ServerReviewView): string {
  const lines = [`${review.server}: ${stateLine(review)}`, ...launchLines(review.launch)];
  if (review.approvedLaunch)
    lines.push('approved launch line (before the change):', ...launchLines(review.approvedLaunch));
  lines.push(`items (${review.items.length}):`);
  for (const item of review.items) {
    lines.push(`  ${item.kind} ${item.name}${item.findings.length ? '' : ': no findings'}`);
    for (const finding of item.findings) lines.push(`    ${findingLine(finding)}`);
  }
  if (review.changes.length > 0) {
    lines.push(`held changes (${review.changes.length}):`);
    for (const change of review.changes) lines.push(...changeLines(change));
  }
  if (review.quarantined) lines.push(`approve with: mcp-switchboard approve ${review.server}`);
  else if (review.changes[0]) {
    lines.push(`approve a change with: mcp-switchboard approve ${review.server} --tool ${review.changes[0].tool}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `review <id> [--json]`. */
export async function reviewCommand(context: ReviewCommandContext, id: string, json: boolean): Promise<number> {
  const review = await askRunning(context, 'reviews.get', { id });
  if (!review) return 1;
  context.out(json ? `${JSON.stringify(review, null, 2)}\n` : reviewText(review));
  return 0;
}

/** `approve <id> [--tool NAME]`. */
export async function approveCommand(context: ReviewCommandContext, id: string, tool?: string): Promise<number> {
  const review =
    tool === undefined
      ? await askRunning(context, 'reviews.approveServer', { id })
      : await askRunning(context, 'reviews.approveChange', { id, tool });
  if (!review) return 1;
  const served = review.items.filter((item) => item.kind === 'tool').length;
  context.out(
    tool === undefined
      ? `${id}: approved; its ${served} tool(s) are served${review.changes.length ? `, ${review.changes.length} change(s) still held` : ''}\n`
      : `${id}: the change of tool ${tool} is approved and served\n`,
  );
  return 0;
}

function scanText(reports: ScanReport[]): string {
  const lines: string[] = [];
  for (const report of reports) {
    const summary =
      report.findings.length === 0
        ? 'no findings'
        : `${report.findings.length} finding(s), highest ${report.highest ?? 'low'}`;
    lines.push(`${report.server}: ${report.items} item(s) scanned ${report.scannedAt}: ${summary}`);
    for (const finding of report.findings) {
      lines.push(`  ${finding.item.kind} ${finding.item.name}: ${findingLine(finding)}`);
    }
  }
  return lines.length ? `${lines.join('\n')}\n` : 'no server has been scanned yet\n';
}

/** `scan [id] [--json]`: exit 1 when a high-severity finding exists. */
export async function scanCommand(
  context: ReviewCommandContext,
  id: string | undefined,
  json: boolean,
): Promise<number> {
  const reports = await askRunning(context, 'reviews.scans', id === undefined ? {} : { id });
  if (!reports) return SCAN_UNREACHABLE;
  context.out(json ? `${JSON.stringify(reports, null, 2)}\n` : scanText(reports));
  return reports.some((report) => report.highest === 'high') ? 1 : 0;
}

/** The `review`, `approve` and `scan` commands. */
export const reviewCli: CliCommand = {
  section: 'review',
  positionals: true,
  commands: reviewSpecs,
  run: async ({ command, positionals, values }) => {
    const context: ReviewCommandContext = {
      ...stdio(),
      call: (method, params) =>
        callRunning(
          { stateDir: defaultStateDir(), configDir: defaultConfigDir(), environment: process.env },
          method,
          params,
        ),
    };
    const id = positionals[0];
    if (command === 'scan') return scanCommand(context, id, values.json);
    if (!id) {
      context.err(
        `usage: mcp-switchboard ${command === 'review' ? 'review <id> [--json]' : 'approve <id> [--tool NAME]'}\n`,
      );
      return 2;
    }
    return command === 'review' ? reviewCommand(context, id, values.json) : approveCommand(context, id, values.tool);
  },
};
