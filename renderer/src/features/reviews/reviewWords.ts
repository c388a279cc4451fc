/**
 * A server's review state in words, the same on its card, in the Servers
 * screen's list of servers awaiting review and on the Review screen: why it is
 * quarantined, how many changes are held, and the scan's summary, plainly (a
 * `low` finding is not an alarm).
 */
import type { QuarantineReason, ReviewStateView, ScanSummaryView } from '../../../../shared/model/reviewViews.js';
import type { ScanSeverity } from '../../../../shared/model/scanViews.js';
import type { Tone } from '../../components/HealthBadge.js';

/** Why a server is quarantined, as the rest of a sentence. */
export const REASON_WORDS: Record<QuarantineReason, string> = {
  new: 'new server, never approved',
  'launch-changed': 'its command or settings changed since you approved it',
  'high-finding': 'a high-severity finding',
  requested: 'you put it back under review',
};

/** How each severity looks: only `high` is an alarm. */
export const SEVERITY_TONE: Record<ScanSeverity, Tone> = { high: 'bad', medium: 'warn', low: 'idle' };

/** Whether a server waits for the user: quarantined, or with changes held. */
export function awaitsReview(state: Pick<ReviewStateView, 'quarantined' | 'pending'>): boolean {
  return state.quarantined || state.pending > 0;
}

/** "1 change held", "3 changes held". */
export function heldWords(pending: number): string {
  return `${pending} ${pending === 1 ? 'change' : 'changes'} held`;
}

/** The scan's summary in one line ("Scan: no findings", "Scan: 2 findings, highest medium"). */
export function scanWords(scan: Pick<ScanSummaryView, 'findings' | 'highest'>): string {
  if (scan.findings === 0) return 'Scan: no findings';
  const count = `${scan.findings} ${scan.findings === 1 ? 'finding' : 'findings'}`;
  return `Scan: ${count}${scan.highest ? `, highest ${scan.highest}` : ''}`;
}

/** The tone of the scan's summary: plain without findings or with only low ones. */
export function scanTone(scan: Pick<ScanSummaryView, 'highest'>): Tone {
  return scan.highest ? SEVERITY_TONE[scan.highest] : 'idle';
}

/** The tone of a quarantine: an alarm only for a high-severity finding. */
export function quarantineTone(reason: QuarantineReason | undefined): Tone {
  return reason === 'high-finding' ? 'bad' : 'warn';
}

/** How severe, for ordering: high first, then medium, low, none. */
export function severityRank(severity: ScanSeverity | undefined): number {
  return severity === 'high' ? 0 : severity === 'medium' ? 1 : severity === 'low' ? 2 : 3;
}

/** The worst severity of some findings (undefined: none). */
export function worstSeverity(findings: readonly { severity: ScanSeverity }[]): ScanSeverity | undefined {
  return [...findings].sort((a, b) => severityRank(a.severity) - severityRank(b.severity))[0]?.severity;
}

/** Findings counted by severity, worst first, as words: "2 high, 1 low" ("" for none). */
export function severityCounts(findings: readonly { severity: ScanSeverity }[]): string {
  return (['high', 'medium', 'low'] as const)
    .map((severity) => [severity, findings.filter((finding) => finding.severity === severity).length] as const)
    .filter(([, count]) => count > 0)
    .map(([severity, count]) => `${count} ${severity}`)
    .join(', ');
}
