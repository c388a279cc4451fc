/**
 * What a viewer of the UI may call over the contract: administrators every
 * method, everyone else (gateway mode's self-service page) only the `me.*`
 * methods, which answer for their own person. Enforced by the bridge on each
 * call, whatever the page shows.
 */
import { ErrorCode, type ErrorData } from '../../shared/errors.js';
import type { UiViewer } from './uiSessions.js';

/** The methods of the self-service page. */
export const SELF_SERVICE_METHODS: ReadonlySet<string> = new Set(['me.get', 'me.calls', 'me.connections.revoke']);

/** Why `viewer` may not call `method` (a `forbidden` error), or undefined when they may. */
export function refusalFor(viewer: UiViewer, method: unknown): ErrorData | undefined {
  if (viewer.admin || (typeof method === 'string' && SELF_SERVICE_METHODS.has(method))) return undefined;
  return {
    code: ErrorCode.Forbidden,
    message: `${typeof method === 'string' ? method : 'this method'} is for administrators; your session may call ${[...SELF_SERVICE_METHODS].join(', ')}`,
    data: { method: typeof method === 'string' ? method : null },
  };
}
