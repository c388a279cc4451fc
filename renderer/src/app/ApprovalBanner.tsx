/**
 * A call waiting for approval shows on every screen: a banner with the oldest
 * waiting call and Approve once / Always allow / Deny, and a way to review all
 * of them on the Authorization screen (which lists them itself, so the banner
 * stays out of its way there). In headless mode each new one is also a
 * browser notification (see approvalNotifications.ts).
 */
import { ErrorNote } from '../components/ErrorNote.js';
import { useOutcome } from '../components/useOutcome.js';
import { useAppStore } from '../store/context.js';
import { useApprovalNotifications } from './approvalNotifications.js';

/** Arguments in one short line. */
function shortArguments(args: Record<string, unknown> | undefined): string {
  const text = JSON.stringify(args ?? {});
  return text.length > 120 ? `${text.slice(0, 117)}…` : text;
}

/** The banner (nothing when no call waits, or on the Authorization screen). */
export function ApprovalBanner() {
  const list = useAppStore((s) => s.approvals.data) ?? [];
  const screen = useAppStore((s) => s.screen);
  const setScreen = useAppStore((s) => s.setScreen);
  const resolve = useAppStore((s) => s.resolveApproval);
  const host = useAppStore((s) => s.info.data?.host);
  const { busy, error, run } = useOutcome();
  useApprovalNotifications(list, host === 'headless');
  const first = list[0];
  if (!first || screen === 'authorization') return null;
  const decide = (decision: 'once' | 'always' | 'deny') => void run(() => resolve(first.id, decision));
  const more = list.length - 1;
  return (
    <section className="banner tone-warn approval-banner" role="region" aria-label="Approval needed">
      <div className="approval-banner-text">
        <b>{first.client}</b> wants to call <code>{first.exposed}</code>{' '}
        <code className="muted">{shortArguments(first.arguments)}</code>
        {more > 0 && <span className="muted"> and {more} more waiting</span>}
      </div>
      <div className="row">
        <button type="button" className="primary" disabled={busy} onClick={() => decide('once')}>
          Approve once
        </button>
        <button type="button" disabled={busy} onClick={() => decide('always')}>
          Always allow
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => decide('deny')}>
          Deny
        </button>
        <button type="button" className="link" onClick={() => setScreen('authorization')}>
          Review {more > 0 ? 'all' : 'details'}
        </button>
      </div>
      <ErrorNote error={error} />
    </section>
  );
}
