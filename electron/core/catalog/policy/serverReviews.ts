/**
 * Quarantine and reviewed changes, in one place: which items are withheld
 * from every client (a quarantined server's items, a tool's pinned change),
 * the poisoning scan's reports (kept here, one owner, refreshed at every
 * catalog change of a server), each server's review, and the user's
 * approvals. The policy engine asks `withheld` for every item it lists or
 * routes (the one mechanism tool pinning already used), so a withheld item
 * is answered as an unknown one everywhere: lists, calls, search mode.
 *
 * A server is quarantined when approvals are kept (a file-backed run) and
 * - `proxy.quarantine` is on and its current launch line was never approved
 *   (a new server, by whatever route it came) or changed since; or
 * - it was never approved and the scan found something high-severity in it
 *   (even with `proxy.quarantine` off).
 * On an approved server, a new tool with a high-severity finding is held like
 * a pinned change (tool pins), until approved.
 */
import { skillPinName } from '../skills.js';
import type { Tool } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { definitionDiff } from '../../../../shared/model/definitionDiff.js';
import type {
  PendingChangeView,
  QuarantineReason,
  ReviewItemView,
  ReviewStateView,
  ScanSummaryView,
  ServerReviewSummary,
  ServerReviewView,
} from '../../../../shared/model/reviewViews.js';
import type { ScanFinding, ScanItemKind, ScanReport } from '../../../../shared/model/scanViews.js';
import type { BackendConfig, ProxyOptions } from '../../platform/config/schema.js';
import type { ItemKind } from '../../platform/config/policyConfig.js';
import { scanCatalog, type ScanInput } from '../scan/scanCatalog.js';
import {
  promptFields,
  resourceFields,
  skillFields,
  templateFields,
  toolFields,
  type ScanField,
} from '../scan/scanFields.js';
import { maskedLaunch } from './approvalFile.js';
import { backendLaunchHash, launchLineOf } from './launchLine.js';
import type { PinChange, PinStore } from './pinStore.js';
import type { ServerApprovals } from './serverApprovals.js';

/** The scan, as the reviews run it (injectable in tests). */
/** Scans servers' definitions (with `only`: just those servers, read against all the inputs). */
export type Scanner = (inputs: ScanInput[], only?: ReadonlySet<string>) => ScanReport[];

/** After a burst of catalog changes (a start), every server is scanned once, this much after the last. */
const RESCAN_AFTER_MS = 1500;

/** What the reviews read of the core. */
export interface ServerReviewsHost {
  /** Approved launch lines (undefined: no file in this run, so no quarantine). */
  approvals: ServerApprovals | undefined;
  /** The tool pins (undefined: pinning is off). */
  pins(): PinStore | undefined;
  /** A configured backend's config in force. */
  backend(id: string): BackendConfig | undefined;
  /** The configured backends' IDs, in config order. */
  backendIds(): readonly string[];
  proxy(): ProxyOptions;
  scanner?: Scanner | undefined;
  /**
   * A server's review changed: views are rebuilt, clients told their lists changed, health re-read;
   * resolves once a server whose containment changed runs again under the new one (bounded by its start).
   */
  changed(backendId: string): void | Promise<void>;
  /** A server's scan report changed (nothing else did): its health is re-read. */
  scanned?(backendId: string): void;
}

/** What health shows of a report (a change of it is worth telling). */
function summaryKey(report: ScanReport): string {
  return `${report.findings.length}:${report.highest ?? ''}`;
}

/** The kinds of the policy and the scan, one for one. */
const SCAN_KIND: Record<ItemKind, ScanItemKind> = {
  tools: 'tool',
  prompts: 'prompt',
  resources: 'resource',
  resourceTemplates: 'resourceTemplate',
  skills: 'skill',
};

/** A server's definitions as it listed them last. */
export type ListedDefinitions = Omit<ScanInput, 'server' | 'prefix'>;

/** Quarantine, scan reports and reviews of every server. */
export class ServerReviews {
  private readonly inputs = new Map<string, ScanInput>();
  private readonly reports = new Map<string, ScanReport>();
  /** Servers listed since their last scan: scanned once the listings settle, or at once when asked about. */
  private readonly unscanned = new Set<string>();
  private rescan: NodeJS.Timeout | undefined;

  constructor(private readonly host: ServerReviewsHost) {}

  /** Whether an item is withheld from every client (the policy engine's `WithheldItems`). */
  withheld(backendId: string, kind: ItemKind, original: string): boolean {
    if (this.quarantineReason(backendId) !== undefined) return true;
    if (kind === 'skills') return this.host.pins()?.isWithheld(backendId, skillPinName(original)) ?? false;
    return kind === 'tools' && (this.host.pins()?.isWithheld(backendId, original) ?? false);
  }

  /**
   * Why an item is withheld, for the answer a client gets when it calls one
   * anyway: its server is quarantined, or (a tool) its changed definition is
   * held for review; undefined when it is not withheld.
   */
  whyWithheld(backendId: string, kind: ItemKind, original: string): 'quarantined' | 'held' | undefined {
    if (this.quarantineReason(backendId) !== undefined) return 'quarantined';
    return kind === 'tools' && this.host.pins()?.isWithheld(backendId, original) === true ? 'held' : undefined;
  }

  /** Why a server is quarantined (undefined: it is not). */
  quarantineReason(backendId: string): QuarantineReason | undefined {
    const { approvals } = this.host;
    const backend = this.host.backend(backendId);
    if (!approvals || !backend || approvals.isApproved(backend)) return undefined;
    if (approvals.isHeld(backendId)) return 'requested';
    const record = approvals.get(backendId);
    if (this.host.proxy().quarantine) return record ? 'launch-changed' : 'new';
    return record === undefined && this.reportOf(backendId)?.highest === 'high' ? 'high-finding' : undefined;
  }

  /**
   * How a quarantined server is launched (undefined: it is not quarantined, so
   * it runs under its own setting): under the strict sandbox, or unsandboxed
   * where none runs if the user chose that for its launch line.
   */
  containment(backendId: string): { startUnsandboxed: boolean } | undefined {
    if (this.quarantineReason(backendId) === undefined) return undefined;
    const backend = this.host.backend(backendId);
    return { startUnsandboxed: backend !== undefined && this.host.approvals?.startsUnsandboxed(backend) === true };
  }

  /**
   * Takes a server's newly listed definitions. They are scanned once the
   * listings settle, together with every other server (a start lists dozens
   * at once, and its clients' first lists come first), or at once when
   * something needs the answer: the
   * returned test, asked by the pins only about tools they have not seen
   * before, says whether a tool has a high-severity finding (held when new).
   * A start whose tools are all pinned already scans nothing on its way.
   */
  scan(backendId: string, prefix: string, listed: ListedDefinitions): (tool: string) => boolean {
    this.inputs.set(backendId, { server: backendId, prefix, ...listed });
    this.unscanned.add(backendId);
    this.rescanLater();
    return (tool) =>
      (this.reportOf(backendId)?.findings ?? []).some(
        (finding) => finding.severity === 'high' && this.pinNameOf(finding) === tool,
      );
  }

  /** A server's report, scanned first if its last listing was not yet. */
  private reportOf(backendId: string): ScanReport | undefined {
    if (this.unscanned.has(backendId)) this.scanNow([backendId]);
    return this.reports.get(backendId);
  }

  private scanNow(servers: string[]): void {
    const only = new Set(servers.filter((id) => this.unscanned.delete(id) && this.inputs.has(id)));
    if (only.size === 0) return;
    for (const report of this.scanner([...this.inputs.values()], only)) this.reports.set(report.server, report);
  }

  private get scanner(): Scanner {
    return this.host.scanner ?? ((inputs, only) => scanCatalog(inputs, new Date(), only));
  }

  /**
   * Scans every server again once the changes settle: a server's findings
   * that compare it with others (shadowing, imitated names) follow a server
   * added or changed after it, at the cost of one pass per burst.
   */
  private rescanLater(): void {
    if (this.rescan) clearTimeout(this.rescan);
    this.rescan = setTimeout(() => {
      this.rescan = undefined;
      this.unscanned.clear();
      const before = new Map([...this.reports].map(([id, report]) => [id, summaryKey(report)]));
      const quarantinedBefore = new Map([...this.inputs.keys()].map((id) => [id, this.quarantineReason(id)]));
      for (const report of this.scanner([...this.inputs.values()])) this.reports.set(report.server, report);
      for (const [id, report] of this.reports) {
        if (before.get(id) === summaryKey(report)) continue;
        if (quarantinedBefore.get(id) !== this.quarantineReason(id)) void this.host.changed(id);
        else this.host.scanned?.(id);
      }
    }, RESCAN_AFTER_MS);
    this.rescan.unref();
  }

  /** Forgets a removed server: its approval, scan and definitions. */
  async forget(backendId: string): Promise<void> {
    this.inputs.delete(backendId);
    this.reports.delete(backendId);
    this.unscanned.delete(backendId);
    await this.host.approvals?.forget(backendId);
  }

  /** A server's review state (undefined: no approvals kept in this run). */
  state(backendId: string): ReviewStateView | undefined {
    const { approvals } = this.host;
    if (!approvals) return undefined;
    const reason = this.quarantineReason(backendId);
    const record = approvals.get(backendId);
    const backend = this.host.backend(backendId);
    const current = backend !== undefined && approvals.isApproved(backend);
    return {
      quarantined: reason !== undefined,
      ...(reason !== undefined ? { reason } : {}),
      ...(record && current ? { approvedAt: record.approvedAt } : {}),
      pending: this.changesOf(backendId).length,
    };
  }

  /** A server's scan summary (undefined: not scanned yet; a listing is scanned once listings settle). */
  scanSummary(backendId: string): ScanSummaryView | undefined {
    // Health asks often (every change): it shows the last scan, and never forces one.
    const report = this.reports.get(backendId);
    if (!report) return undefined;
    return {
      scannedAt: report.scannedAt,
      findings: report.findings.length,
      ...(report.highest ? { highest: report.highest } : {}),
    };
  }

  /** The scan report of one server, or of every server. */
  scans(backendId?: string): ScanReport[] {
    if (backendId !== undefined) {
      this.requireBackend(backendId);
      const report = this.reportOf(backendId);
      return report ? [report] : [];
    }
    return this.host.backendIds().flatMap((id) => this.reportOf(id) ?? []);
  }

  /** Every server's review state and scan summary, in config order. */
  list(): ServerReviewSummary[] {
    return this.host.backendIds().map((server) => {
      const scan = this.scanSummary(server);
      return {
        server,
        ...(this.state(server) ?? { quarantined: false, pending: this.changesOf(server).length }),
        ...(scan ? { scan } : {}),
      };
    });
  }

  /** One server's review: launch line, items with findings, held changes with their diffs. */
  review(backendId: string): ServerReviewView {
    const backend = this.requireBackend(backendId);
    const launch = maskedLaunch(launchLineOf(backend));
    const record = this.host.approvals?.get(backendId);
    const report = this.reportOf(backendId);
    return {
      server: backendId,
      ...(this.state(backendId) ?? { quarantined: false, pending: this.changesOf(backendId).length }),
      quarantineOn: this.host.proxy().quarantine,
      launch,
      ...(record && record.hash !== backendLaunchHash(backend) ? { approvedLaunch: record.launch } : {}),
      items: this.items(backendId),
      changes: this.changesOf(backendId).map((change) => this.changeView(change)),
      ...(report ? { scan: report } : {}),
    };
  }

  /**
   * Approves a server: its current launch line, and every tool change held
   * for it (what its review showed); its items are served at once. A server
   * whose scan has a high-severity finding is approved only with `confirmHigh`
   * (else `confirmation_required`, naming those findings).
   */
  async approveServer(
    backendId: string,
    options: { confirmHigh?: boolean; holdFlagged?: boolean } = {},
  ): Promise<ServerReviewView> {
    const backend = this.requireBackend(backendId);
    const approvals = this.requireApprovals();
    const findings = this.reportOf(backendId)?.findings ?? [];
    // With holdFlagged: the tools and skills with a finding of medium or higher stay held, approved one by one.
    const flagged = options.holdFlagged
      ? [
          ...new Set(
            findings
              .filter((finding) => finding.severity !== 'low')
              .flatMap((finding) => this.pinNameOf(finding) ?? []),
          ),
        ]
      : [];
    const high = findings.filter((finding) => {
      const pinned = this.pinNameOf(finding);
      return finding.severity === 'high' && !(pinned !== undefined && flagged.includes(pinned));
    });
    if (high.length > 0 && !options.confirmHigh) throw confirmationRequired(backendId, high);
    await approvals.approve(backend, flagged);
    const pins = this.host.pins();
    for (const change of this.changesOf(backendId))
      if (!flagged.includes(change.tool)) await pins?.approve(backendId, change.tool);
    if (flagged.length > 0) await pins?.hold(backendId, flagged);
    await this.host.changed(backendId);
    return this.review(backendId);
  }

  /** Whether the user held a tool when approving its server (`holdFlagged`), until approved one by one. */
  toolHeld(backendId: string, tool: string): boolean {
    return this.host.approvals?.isToolHeld(backendId, tool) ?? false;
  }

  /**
   * Puts a server back under review ("Quarantine again"): its items are
   * withheld, and it runs under the strict sandbox, until approved again.
   */
  async quarantineAgain(backendId: string): Promise<ServerReviewView> {
    const backend = this.requireBackend(backendId);
    const approvals = this.requireApprovals();
    if (!approvals.isHeld(backendId)) await approvals.hold(backend);
    await this.host.changed(backendId);
    return this.review(backendId);
  }

  /**
   * Records the user's choice to start a quarantined server unsandboxed where
   * no sandbox can run (for its current launch line); refused for a server
   * that is not quarantined (it runs under its own setting).
   */
  async startUnsandboxed(backendId: string): Promise<ServerReviewView> {
    const backend = this.requireBackend(backendId);
    const approvals = this.requireApprovals();
    if (this.quarantineReason(backendId) === undefined)
      throw new SwitchboardError(
        ErrorCode.InvalidParams,
        `"${backendId}" is not quarantined: it runs under its own sandbox setting`,
        { backend: backendId },
      );
    await approvals.allowUnsandboxed(backend);
    await this.host.changed(backendId);
    return this.review(backendId);
  }

  private requireApprovals(): ServerApprovals {
    const { approvals } = this.host;
    if (!approvals) throw new SwitchboardError(ErrorCode.NotSupported, 'server approvals are not kept in this mode');
    return approvals;
  }

  /** Approves one held tool change; throws `unknown_change` when none is held. */
  async approveChange(backendId: string, tool: string): Promise<ServerReviewView> {
    this.requireBackend(backendId);
    const pins = this.host.pins();
    if (!pins) throw new SwitchboardError(ErrorCode.UnknownChange, 'tool pinning is not enabled');
    await pins.approve(backendId, tool);
    await this.host.approvals?.releaseTool(backendId, tool);
    await this.host.changed(backendId);
    return this.review(backendId);
  }

  private requireBackend(backendId: string): BackendConfig {
    const backend = this.host.backend(backendId);
    if (!backend) {
      throw new SwitchboardError(ErrorCode.UnknownBackend, `no server "${backendId}"`, { backend: backendId });
    }
    return backend;
  }

  private changesOf(backendId: string): PinChange[] {
    return (this.host.pins()?.changes() ?? []).filter((change) => change.backend === backendId);
  }

  /** A finding's item name as the server names it (the scan may name an item as exposed, under the prefix). */
  private originalName(finding: ScanFinding): string {
    const { name } = finding.item;
    const input = this.inputs.get(finding.server);
    if (!input?.prefix) return name;
    const prefix = `${input.prefix}${this.host.proxy().separator}`;
    const ownName = [...input.tools, ...input.prompts].some((item) => item.name === name);
    return !ownName && name.startsWith(prefix) ? name.slice(prefix.length) : name;
  }

  /** The name a finding's item is pinned (and held) under: a tool's own name, a skill's pin name; else none. */
  private pinNameOf(finding: ScanFinding): string | undefined {
    if (finding.item.kind === 'tool') return this.originalName(finding);
    return finding.item.kind === 'skill' ? skillPinName(finding.item.name) : undefined;
  }

  private findingsOf(backendId: string, kind: ScanItemKind, name: string): ScanFinding[] {
    return (this.reportOf(backendId)?.findings ?? []).filter(
      (finding) => finding.item.kind === kind && this.originalName(finding) === name,
    );
  }

  private items(backendId: string): ReviewItemView[] {
    const input = this.inputs.get(backendId);
    if (!input) return [];
    /** `scanName`: the name the scan gives the item (a resource's name, or its URI without one). */
    const item = (
      kind: ItemKind,
      name: string,
      description: string | undefined,
      fields: () => ScanField[],
      scanName = name,
    ): ReviewItemView => {
      const findings = this.findingsOf(backendId, SCAN_KIND[kind], scanName);
      return {
        kind: SCAN_KIND[kind],
        name,
        ...(description !== undefined ? { description } : {}),
        findings,
        ...(findings.length > 0 ? { texts: findingTexts(fields(), findings) } : {}),
      };
    };
    return [
      ...input.tools.map((tool) => item('tools', tool.name, tool.description, () => toolFields(tool))),
      ...input.prompts.map((prompt) => item('prompts', prompt.name, prompt.description, () => promptFields(prompt))),
      ...input.resources.map((resource) =>
        item(
          'resources',
          resource.uri,
          resource.description,
          () => resourceFields(resource),
          resource.name || resource.uri,
        ),
      ),
      ...input.resourceTemplates.map((template) =>
        item(
          'resourceTemplates',
          template.uriTemplate,
          template.description,
          () => templateFields(template),
          template.name || template.uriTemplate,
        ),
      ),
      ...(input.skills ?? []).map((skill) =>
        item('skills', skill.frontmatter.name, skill.frontmatter.description, () =>
          skillFields(skill, input.skillFiles ?? {}),
        ),
      ),
    ];
  }

  private changeView(change: PinChange): PendingChangeView {
    const approved = change.pinned?.definition as unknown as Record<string, unknown> | undefined;
    const offered = change.offered.definition as unknown as Record<string, unknown>;
    const findings = this.findingsOf(change.backend, 'tool', change.tool);
    return {
      tool: change.tool,
      detectedAt: change.detectedAt,
      ...(approved ? { approved } : {}),
      offered,
      diff: definitionDiff(approved, offered),
      findings,
      ...(findings.length > 0 ? { texts: findingTexts(toolFields(offered as unknown as Tool), findings) } : {}),
    };
  }
}

/** The refusal of an approval past high-severity findings: it names them (rule, item, excerpt). */
function confirmationRequired(backendId: string, high: readonly ScanFinding[]): SwitchboardError {
  const named = high.map((finding) => `${finding.rule} in ${finding.item.kind} ${finding.item.name}`);
  const shown = named.slice(0, 5).join('; ') + (named.length > 5 ? `; and ${named.length - 5} more` : '');
  return new SwitchboardError(
    ErrorCode.ConfirmationRequired,
    `"${backendId}" has ${high.length} high-severity finding${high.length === 1 ? '' : 's'} (${shown}): approve it only if you trust it, confirming those findings`,
    {
      backend: backendId,
      findings: high.map((finding) => ({
        rule: finding.rule,
        severity: finding.severity,
        item: `${finding.item.kind} ${finding.item.name}`,
        field: finding.field,
        excerpt: finding.excerpt,
      })),
    },
  );
}

/**
 * The whole text of each field a finding is about (the finding itself keeps
 * only its span's excerpt), so the review screen can show the span in place
 * with what surrounds it. Only fields with findings are taken: a review stays
 * small whatever a server lists.
 *
 * `fields`' texts keyed by their dotted path, for the fields `findings` name.
 */
export function findingTexts(fields: readonly ScanField[], findings: readonly ScanFinding[]): Record<string, string> {
  const named = new Set(findings.map((finding) => finding.field));
  const texts: Record<string, string> = {};
  for (const field of fields) if (named.has(field.field)) texts[field.field] = field.text;
  return texts;
}
