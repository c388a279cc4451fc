/**
 * Quarantine and reviewed changes on the command line: `review <id>` (the
 * launch line, the sandbox, each item with the scan's findings, the held
 * changes with their diffs; `--start-unsandboxed`: the recorded choice to
 * start a quarantined server where no sandbox runs), `approve <id> [--tool
 * NAME] [--confirm-high]` (a quarantined server, past high findings only
 * confirmed, or one held change), `quarantine <id>` (put an approved server
 * back under review) and `scan [id]` (the scan's findings). They ask
 * the running Switchboard (it holds the scan and the held changes in memory),
 * over its UI bridge with the main token, and say so when none runs. In
 * cluster mode (a `cluster` section) that instance is a replica, which writes
 * the cluster's record in Redis; with none running here they write nothing
 * (this machine's approvals file is only a replica's copy) and say where to
 * run them instead.
 */
import { unifiedDiffLines } from '../../../shared/model/definitionDiff.js';
import type { LaunchLineView, PendingChangeView, ServerReviewView } from '../../../shared/model/reviewViews.js';
import type { ScanFinding, ScanReport } from '../../../shared/model/scanViews.js';
import { JSON_OUTPUT } from '../optionHelp.js';
import type { CliCommand, CommandSpec } from '../command.js';
import { askRunning, type RunningCommandContext } from '../askRunning.js';
import { stdio } from '../io.js';
import { callUsersRunningPatiently, type RunningCall } from '../runningBridge.js';
import { loadConfigFile } from '../../core/platform/index.js';
import type { MethodName, ParamsOf, ResultOf } from '../../../shared/contract.js';

/** The commands, in help order. */
export const reviewSpecs: readonly CommandSpec[] = [
  {
    name: 'review',
    usage: ['review <id> [--json] [--start-unsandboxed]'],
    text: [
      "A server's review: its command, arguments and sandbox, each tool with the scan's findings,",
      'and the changed definitions held for approval, as a unified diff. A quarantined server runs',
      'under the strict sandbox while you review it; where none can run it is not started until',
      'you choose to start it unsandboxed (--start-unsandboxed, recorded for its launch line).',
    ],
    options: {
      ...JSON_OUTPUT,
      'start-unsandboxed':
        'Start this quarantined server without a sandbox while you review it (only where none can run).',
    },
    examples: ['review github', 'review github --json', 'review github --start-unsandboxed'],
  },
  {
    name: 'approve',
    usage: ['approve <id> [--confirm-high] [--hold-flagged] [--tool NAME]'],
    text: [
      'Approve a quarantined server (its items are served at once), or one held tool change.',
      'A server whose scan found something high-severity is refused, naming the findings,',
      'unless --confirm-high says you read them.',
    ],
    options: {
      tool: "Approve only this tool's held change, not the whole server.",
      'confirm-high': 'Approve even though the scan found something high-severity (you read the findings).',
      'hold-flagged':
        'Approve the server but keep each tool with a finding (medium or higher) held, to approve one by one with --tool.',
    },
    examples: [
      'approve github',
      'approve github --confirm-high',
      'approve github --hold-flagged',
      'approve github --tool create_issue',
    ],
  },
  {
    name: 'quarantine',
    usage: ['quarantine <id>'],
    text: [
      'Put an approved server back under review: its items are hidden from every client and it',
      'runs under the strict sandbox until you approve it again.',
    ],
    options: {},
    examples: ['quarantine github'],
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
      requested: 'you put it back under review',
    }[review.reason ?? 'new'];
    return `QUARANTINED (${why}): its tools, prompts and resources are hidden from every client until you approve it`;
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
  const high = (review.scan?.findings ?? []).some((finding) => finding.severity === 'high');
  if (review.quarantined)
    lines.push(`approve with: mcp-switchboard approve ${review.server}${high ? ' --confirm-high' : ''}`);
  else lines.push(`put back under review with: mcp-switchboard quarantine ${review.server}`);
  if (!review.quarantined && review.changes[0]) {
    lines.push(`approve a change with: mcp-switchboard approve ${review.server} --tool ${review.changes[0].tool}`);
  }
  return `${lines.join('\n')}\n`;
}

/** `review <id> [--json] [--start-unsandboxed]`. */
export async function reviewCommand(
  context: ReviewCommandContext,
  id: string,
  json: boolean,
  startUnsandboxed = false,
): Promise<number> {
  const review = await askRunning(context, startUnsandboxed ? 'reviews.startUnsandboxed' : 'reviews.get', { id });
  if (!review) return 1;
  if (startUnsandboxed && !json)
    context.out(`${id}: starts without a sandbox while you review it (your choice, recorded for this launch line)\n`);
  context.out(json ? `${JSON.stringify(review, null, 2)}\n` : reviewText(review));
  return 0;
}

/** The refusal of an approval past high findings, each finding on its line. */
function confirmationText(id: string, data: Record<string, unknown> | undefined): string {
  const findings = Array.isArray(data?.['findings']) ? (data['findings'] as Record<string, unknown>[]) : [];
  const lines = [
    `mcp-switchboard: ${id} was not approved: the scan found ${findings.length} high-severity finding(s):`,
    ...findings.map(
      (finding) => `  HIGH ${String(finding['rule'])} in ${String(finding['item'])}: "${String(finding['excerpt'])}"`,
    ),
    `Read them (mcp-switchboard review ${id}); to approve it anyway: mcp-switchboard approve ${id} --confirm-high,`,
    `or only its tools without findings: mcp-switchboard approve ${id} --hold-flagged`,
  ];
  return `${lines.join('\n')}\n`;
}

/** `approve <id> [--tool NAME] [--confirm-high]`. */
export async function approveCommand(
  context: ReviewCommandContext,
  id: string,
  tool?: string,
  confirmHigh = false,
  holdFlagged = false,
): Promise<number> {
  let review: ServerReviewView | undefined;
  if (tool === undefined) {
    const params = { id, ...(confirmHigh ? { confirmHigh } : {}), ...(holdFlagged ? { holdFlagged } : {}) };
    const call = await context.call('reviews.approveServer', params);
    if (call.reached && !call.outcome.ok && call.outcome.error.code === 'confirmation_required') {
      context.err(confirmationText(id, call.outcome.error.data));
      return 1;
    }
    review = await askRunning(context, 'reviews.approveServer', params, call);
  } else review = await askRunning(context, 'reviews.approveChange', { id, tool });
  if (!review) return 1;
  const served = review.items.filter((item) => item.kind === 'tool').length - review.changes.length;
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

/** `quarantine <id>`: an approved server back under review. */
export async function quarantineCommand(context: ReviewCommandContext, id: string): Promise<number> {
  const review = await askRunning(context, 'reviews.quarantine', { id });
  if (!review) return 1;
  context.out(
    `${id}: quarantined: its items are hidden from every client and it runs under the strict sandbox until you approve it again (mcp-switchboard approve ${id})\n`,
  );
  return 0;
}

/**
 * Why nothing was asked, in cluster mode: approvals are the cluster's (in Redis, written by a
 * replica, which also holds the scan an approval is checked against), so a command with no
 * replica running here must not write this machine's copy; it says where to run instead.
 */
export function clusterUnreachable(reason: string, command: string, id: string | undefined): string {
  const line = `mcp-switchboard ${command}${id === undefined ? '' : ` ${id}`}`;
  return (
    `${reason}; this config has a "cluster" section: server approvals are the cluster's, kept in Redis by its ` +
    `replicas (this machine's server-approvals.json is only a replica's copy, and nothing here was written). ` +
    `Run it where a replica runs (kubectl exec deploy/<release> -- ${line}) or use any replica's UI (Servers, then Review)`
  );
}

/** Whether the config at `path` has a `cluster` section (replicas sharing Redis). */
async function clusterMode(path: string): Promise<boolean> {
  const loaded = await loadConfigFile(path, { allowMissing: true }).catch(() => undefined);
  return loaded?.ok === true && loaded.result.config.cluster !== undefined;
}

/** The `review`, `approve`, `quarantine` and `scan` commands. */
export const reviewCli: CliCommand = {
  section: 'review',
  positionals: true,
  commands: reviewSpecs,
  run: async ({ command, positionals, values, config }) => {
    const id = positionals[0];
    const context: ReviewCommandContext = {
      ...stdio(),
      // Approve and quarantine answer once the server runs again under its new containment.
      call: async <M extends MethodName>(method: M, params?: ParamsOf<M>): Promise<RunningCall<ResultOf<M>>> => {
        const call = await callUsersRunningPatiently(method, params);
        if (call.reached || !(await clusterMode(config))) return call;
        return { reached: false, reason: clusterUnreachable(call.reason, command, id) };
      },
    };
    if (command === 'scan') return scanCommand(context, id, values.json);
    if (!id) {
      const usage = reviewSpecs.find((spec) => spec.name === command)?.usage[0] ?? command;
      context.err(`usage: mcp-switchboard ${usage}\n`);
      return 2;
    }
    if (command === 'review') return reviewCommand(context, id, values.json, values['start-unsandboxed']);
    if (command === 'quarantine') return quarantineCommand(context, id);
    return approveCommand(context, id, values.tool, values['confirm-high'], values['hold-flagged']);
  },
};
