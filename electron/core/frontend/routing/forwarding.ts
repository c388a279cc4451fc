/**
 * What a frontend request carries that must not be forwarded as-is, and the
 * relay of progress back to the frontend.
 */
import type { Progress } from '@modelcontextprotocol/server';

/** A progress update as the SDK client reports it. */
export type ProgressUpdate = Progress;

/** Sends one notification to the frontend that made the request. */
export type FrontendNotify = (notification: { method: string; params?: Record<string, unknown> }) => Promise<void>;

/**
 * `_meta` to forward upstream: without the frontend's progress token (the SDK
 * client puts its own token on the backend request) and without the
 * frontend's protocol envelope keys (the client attaches its own).
 */
export function forwardedMeta(meta: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!meta) return undefined;
  const kept = Object.entries(meta).filter(
    ([key]) => key !== 'progressToken' && !key.startsWith('io.modelcontextprotocol/'),
  );
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

/** Drops `_meta` keys we must not forward; returns params without `_meta` when none is left. */
export function withForwardedMeta<T extends { _meta?: Record<string, unknown> | undefined }>(params: T): T {
  const { _meta, ...rest } = params;
  const meta = forwardedMeta(_meta);
  return (meta === undefined ? rest : { ...rest, _meta: meta }) as T;
}

/**
 * Re-sends a backend's progress to the frontend under the frontend's own
 * token, strictly in order, one send at a time: progress that comes while a
 * send is under way waits in one slot, the latest replacing an older one (a
 * client reading slowly gets fewer updates, never a growing queue). Returns
 * undefined when the frontend asked for no progress. Sends are never awaited
 * by the call: a lost last notification (SDK issue 2580 over stdio) never
 * delays or fails the result.
 */
export function progressRelay(
  token: string | number | undefined,
  notify: FrontendNotify,
): ((progress: ProgressUpdate) => void) | undefined {
  if (token === undefined) return undefined;
  let waiting: Record<string, unknown> | undefined;
  let sending = false;
  const pump = async (): Promise<void> => {
    sending = true;
    while (waiting) {
      const params = waiting;
      waiting = undefined;
      await notify({ method: 'notifications/progress', params }).catch(() => undefined);
    }
    sending = false;
  };
  return (progress) => {
    const params: Record<string, unknown> = { progressToken: token, progress: progress.progress };
    if (progress.total !== undefined) params['total'] = progress.total;
    if (progress.message !== undefined) params['message'] = progress.message;
    waiting = params;
    if (!sending) void pump();
  };
}
