/**
 * What the desktop shell shows outside its window, as plain data: the tray's
 * status line and "calls waiting" entry, and which waiting calls still need
 * a desktop notification. main.ts renders these with Electron's Tray, Menu
 * and Notification; keeping the decisions here lets them be tested without
 * the Electron binary.
 */
import type { ApprovalRequest } from '../core/catalog/index.js';
import type { Readiness } from '../../shared/model/health.js';

/** The tray's status line: the endpoint and how many servers are in each state. */
export function trayStatusLine(url: string | undefined, readiness: Readiness | undefined): string {
  if (url === undefined || readiness === undefined) return 'Starting…';
  const parts = Object.entries(readiness.counts)
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`);
  return `${url} — ${parts.join(', ') || 'no servers'}`;
}

/** The tray menu's entry for calls waiting for approval, or undefined when none waits. */
export function waitingLabel(waiting: number): string | undefined {
  if (waiting === 0) return undefined;
  return waiting === 1 ? '1 call waiting for approval' : `${waiting} calls waiting for approval`;
}

/** A desktop notification to show for a call waiting for approval. */
export interface ApprovalNotice {
  id: string;
  title: string;
  body: string;
}

/**
 * The notices to show for `pending`: one per call not yet notified, once.
 * `notified` is updated in place: new ids are added and ids no longer
 * pending are forgotten, so the set stays as small as the queue.
 */
export function approvalNotices(pending: readonly ApprovalRequest[], notified: Set<string>): ApprovalNotice[] {
  const ids = new Set(pending.map((request) => request.id));
  for (const id of notified) if (!ids.has(id)) notified.delete(id);
  const notices: ApprovalNotice[] = [];
  for (const request of pending) {
    if (notified.has(request.id)) continue;
    notified.add(request.id);
    notices.push({
      id: request.id,
      title: 'Switchboard: approval needed',
      body: `${request.client} wants to call ${request.exposed}`,
    });
  }
  return notices;
}
