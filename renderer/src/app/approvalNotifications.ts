/**
 * Browser notifications for calls waiting for approval (headless mode; the
 * desktop app shows its own from the main process). Permission is asked for
 * once, when the first approval arrives; each new waiting call then shows one
 * notification, and clicking it brings the UI forward.
 */
import { useEffect, useRef } from 'react';
import type { ApprovalView } from '../../../shared/model/views.js';

/** localStorage key remembering that permission was asked for. */
const ASKED_KEY = 'switchboard.notificationsAsked';

function notificationsAvailable(): boolean {
  return typeof window !== 'undefined' && 'Notification' in window;
}

/** Asks for permission unless it was asked before; resolves to whether notifications may be shown. */
async function permitted(): Promise<boolean> {
  if (Notification.permission !== 'default') return Notification.permission === 'granted';
  if (localStorage.getItem(ASKED_KEY)) return false;
  localStorage.setItem(ASKED_KEY, '1');
  return (await Notification.requestPermission()) === 'granted';
}

function show(approval: ApprovalView): void {
  const notification = new Notification('Switchboard: approval needed', {
    body: `${approval.client} wants to call ${approval.exposed}`,
    tag: `approval-${approval.id}`,
  });
  notification.onclick = () => {
    window.focus();
    notification.close();
  };
}

/** Shows a notification for each approval in `list` not seen before (when `enabled`). */
export function useApprovalNotifications(list: ApprovalView[], enabled: boolean): void {
  const seen = useRef(new Set<string>());
  useEffect(() => {
    if (!enabled || !notificationsAvailable()) return;
    const fresh = list.filter((approval) => !seen.current.has(approval.id));
    if (fresh.length === 0) return;
    for (const approval of fresh) seen.current.add(approval.id);
    void permitted().then((ok) => {
      if (ok) for (const approval of fresh) show(approval);
    });
  }, [list, enabled]);
}
