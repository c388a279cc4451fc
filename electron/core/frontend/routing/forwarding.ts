/**
 * What a frontend request carries that must not be forwarded as-is, and the
 * relay of progress back to the frontend.
 */
import type { Progress } from '@modelcontextprotocol/server';
import type { OutboundFlow } from '../relay/notificationQueue.js';

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

/** A progress relay: takes the backend's updates; `idle()` resolves once what it holds has been sent. */
export interface ProgressRelay {
  (progress: ProgressUpdate): void;
  idle(): Promise<void>;
}

/**
 * Re-sends a backend's progress to the frontend under the frontend's own
 * token, strictly in order, one send at a time: progress that comes while a
 * send is under way waits in one slot, the latest replacing an older one (a
 * client reading slowly gets fewer updates, never a growing queue). Returns
 * undefined when the frontend asked for no progress. Sends are never awaited
 * by the call itself (a lost last notification, SDK issue 2580 over stdio,
 * never fails the result); the answer waits for `idle()`, so the latest
 * progress goes before it. With the request's `flow` (a 2026-07-28 HTTP
 * response stream), the slot also waits while the client does not read.
 */
export function progressRelay(
  token: string | number | undefined,
  notify: FrontendNotify,
  flow?: OutboundFlow,
): ProgressRelay | undefined {
  if (token === undefined) return undefined;
  let waiting: Record<string, unknown> | undefined;
  let sending: Promise<void> | undefined;
  const pump = async (): Promise<void> => {
    while (waiting) {
      if (flow?.congested()) {
        await new Promise<void>((resolve) => flow.whenDrained(resolve));
        continue;
      }
      const params = waiting;
      waiting = undefined;
      await notify({ method: 'notifications/progress', params }).catch(() => undefined);
    }
    sending = undefined;
  };
  const relay = (progress: ProgressUpdate): void => {
    const params: Record<string, unknown> = { progressToken: token, progress: progress.progress };
    if (progress.total !== undefined) params['total'] = progress.total;
    if (progress.message !== undefined) params['message'] = progress.message;
    waiting = params;
    sending ??= pump();
  };
  return Object.assign(relay, { idle: () => sending ?? Promise.resolve() });
}

/** The answer, once `relay` has sent the progress it holds (at most `maxWaitMs`: a stuck client never holds it). */
export async function afterProgress<T>(relay: ProgressRelay | undefined, answer: T, maxWaitMs = 1000): Promise<T> {
  if (!relay) return answer;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxWaitMs)));
  await Promise.race([relay.idle(), limit]);
  clearTimeout(timer);
  return answer;
}
