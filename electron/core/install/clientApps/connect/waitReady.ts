/**
 * Waiting, before `connect` relays anything, until the instance it found or
 * started has finished every enabled backend's first connection attempt. The
 * runtime file is written as soon as the endpoint listens, before backends
 * start, so relaying at once would give a one-shot client (`mcp-cli
 * call-tool`, a script) an empty `tools/list` or `Unknown tool` for its first
 * call. `/readyz` reports `settled` and `listable` (see backends/supervisor/backendPool.ts): a
 * warm start's cached catalogs need no wait; the wait is bounded,
 * so a backend stuck on its first attempt delays a client, never blocks it.
 */

/** Options of {@link waitForBackends}. */
export interface WaitReadyOptions {
  /** Longest wait (default 30 s); afterwards the relay starts with what is up. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Poll interval (default 100 ms). */
  intervalMs?: number;
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** One look at `/readyz`: whether every enabled backend has had its first attempt. */
async function settled(url: string, signal: AbortSignal): Promise<boolean> {
  try {
    const response = await fetch(new URL('/readyz', url), { signal });
    const body = (await response.json()) as { ready?: unknown; settled?: unknown; listable?: unknown };
    // `listable`: the rest serve their cached catalogs, so a first tools/list
    // is already complete and a call to one still starting waits for it.
    // An instance older than `settled` says only `ready` (settled and at least one up).
    return body.listable === true || body.settled === true || body.ready === true;
  } catch {
    return false;
  }
}

/**
 * Resolves true once the instance at `url` (its `/mcp` URL) reports its
 * backends settled, false when the time runs out or `signal` aborts.
 */
export async function waitForBackends(url: string, options: WaitReadyOptions = {}): Promise<boolean> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (!options.signal?.aborted) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    const attempt = AbortSignal.any([
      AbortSignal.timeout(Math.min(left, 2000)),
      ...(options.signal ? [options.signal] : []),
    ]);
    if (await settled(url, attempt)) return true;
    await sleep(Math.min(options.intervalMs ?? 100, Math.max(0, deadline - Date.now())), options.signal);
  }
  return false;
}
