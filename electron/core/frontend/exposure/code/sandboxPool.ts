/**
 * Code mode's worker threads, seen from the proxy's event loop: a program
 * runs in a worker (sandboxWorker.ts), so one computing for its whole CPU
 * budget holds up no other client. The pool is bounded (MAX_WORKERS, runs
 * beyond wait for one, at most MAX_WAITING of them) and reused: a worker
 * that ended its run cleanly takes the next, its engine already compiled,
 * so a run's start is a message and a fresh QuickJS runtime. One stays warm;
 * more idle ones end after IDLE_MS.
 *
 * Each call of the program arrives here as a message and goes to `callTool`
 * (the direct call's path); its value goes back. The limits hold from here:
 * wall time and cancellation end the worker at once (whatever the engine is
 * doing), and so does CPU time past the limit by CPU_GRACE_MS when the
 * engine's own interrupt has not stopped it (QuickJS checks it rarely while
 * collecting garbage), read from the meter the worker writes. A run stopped
 * by a limit ends its worker too (its engine cannot free what it held), and
 * a fresh one is started in the background.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RunOutcome, RunStats, SandboxLimits, StopReason, ToolCaller, ToolNamespaces } from './sandboxRunner.js';
import type { FromWorker, ToWorker } from './sandboxWorker.js';

export { DEFAULT_LIMITS } from './sandboxRunner.js';

const MAX_WORKERS = Math.max(1, Math.min(4, availableParallelism()));
const MAX_WAITING = 64;
const IDLE_MS = 60_000;
/**
 * How far past its CPU limit a worker's engine may go before it is ended from
 * here: a backstop for an engine that checks no interrupt, well below the
 * wall limit. Generous, so it never takes a stop the engine would report
 * itself: a memory bomb keeps QuickJS allocating, its interrupt unchecked,
 * for seconds on a loaded machine (6 to 10 s seen on 2 busy cores) before it
 * names the memory limit. It holds up only that worker, never the event loop.
 */
const CPU_GRACE_MS = 15_000;
const WATCH_MS = 100;
/** The longest timer Node keeps: the worker's own wall timer stays out of the way of ours. */
const NO_WALL_MS = 2 ** 31 - 1;

interface PoolWorker {
  worker: Worker;
  idleTimer?: NodeJS.Timeout | undefined;
}

interface Waiter {
  give: (pooled: PoolWorker) => void;
  fail: (error: Error) => void;
}

const idle: PoolWorker[] = [];
const waiters: Waiter[] = [];
let live = 0;
let workerFile: { file: string; fromSource: boolean } | undefined;

/**
 * The worker's file: built, beside the bundle (or one folder up from a chunk
 * of it); from source (tests, benches), the .ts beside this one, through tsx.
 */
function whereIsWorker(): { file: string; fromSource: boolean } {
  if (workerFile) return workerFile;
  const here = dirname(fileURLToPath(import.meta.url));
  const built = [join(here, 'sandboxWorker.js'), join(here, '..', 'sandboxWorker.js')].find((file) => existsSync(file));
  workerFile = built ? { file: built, fromSource: false } : { file: join(here, 'sandboxWorker.ts'), fromSource: true };
  return workerFile;
}

/** A new worker, resolved once its engine is loaded. */
function spawn(): Promise<PoolWorker> {
  const { file, fromSource } = whereIsWorker();
  const options = { resourceLimits: { maxOldGenerationSizeMb: 256 } };
  const worker = fromSource
    ? new Worker(
        `import('tsx/esm/api').then((api) => { api.register(); return import(${JSON.stringify(pathToFileURL(file).href)}); })`,
        { ...options, eval: true },
      )
    : new Worker(file, options);
  worker.unref();
  return new Promise((resolve, reject) => {
    const ready = (message: FromWorker) => {
      if (message.kind !== 'ready') return;
      worker.off('message', ready).off('error', failed).off('exit', failed);
      resolve({ worker });
    };
    const failed = (error: unknown) => {
      void worker.terminate();
      reject(new Error(`the sandbox could not start: ${error instanceof Error ? error.message : `exit ${error}`}`));
    };
    worker.on('message', ready).once('error', failed).once('exit', failed);
  });
}

/** Starts a worker for the first waiter (or to keep one warm). */
function grow(): void {
  live++;
  spawn().then(release, (error: Error) => {
    live--;
    waiters.shift()?.fail(error);
  });
}

/** A worker done with a run, for the next one (or idle). */
function release(pooled: PoolWorker): void {
  const waiter = waiters.shift();
  if (waiter) return waiter.give(pooled);
  idle.push(pooled);
  pooled.idleTimer = setTimeout(() => {
    const at = idle.indexOf(pooled);
    if (at < 0 || idle.length === 1) return;
    idle.splice(at, 1);
    retire(pooled, false);
  }, IDLE_MS).unref();
}

/** Ends a worker; keeps one warm (or starts one for a waiting run) unless `replace` is false. */
function retire(pooled: PoolWorker, replace = true): void {
  live--;
  void pooled.worker.terminate();
  if (replace && live < MAX_WORKERS && (waiters.length > 0 || idle.length === 0)) grow();
}

/** A worker for one run: an idle one, a new one, or the next one free. */
function acquire(signal: AbortSignal): Promise<PoolWorker> {
  const ready = idle.pop();
  if (ready) {
    clearTimeout(ready.idleTimer);
    return Promise.resolve(ready);
  }
  if (waiters.length >= MAX_WAITING) {
    return Promise.reject(new Error(`code mode is busy: ${MAX_WAITING} runs are waiting for a sandbox; retry`));
  }
  return new Promise((resolve, reject) => {
    const waiter: Waiter = {
      give: (pooled) => {
        signal.removeEventListener('abort', gone);
        resolve(pooled);
      },
      fail: (error) => {
        signal.removeEventListener('abort', gone);
        reject(error);
      },
    };
    const gone = () => {
      const at = waiters.indexOf(waiter);
      if (at >= 0) waiters.splice(at, 1);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', gone, { once: true });
    waiters.push(waiter);
    if (live < MAX_WORKERS) grow();
  });
}

/** Runs `source` in a worker; the same contract as sandboxRunner's runProgram (see the file header). */
export async function runInWorker(
  source: string,
  namespaces: ToolNamespaces,
  callTool: ToolCaller,
  limits: SandboxLimits,
  signal?: AbortSignal,
): Promise<RunOutcome> {
  const stats: RunStats = { logs: [], calls: 0, peakInFlight: 0 };
  const stopped = (reason: StopReason, message: string): RunOutcome => ({ ok: false, reason, message, ...stats });
  const wallMessage = `wall time limit: the run took more than ${limits.wallMs} ms`;
  const cancelMessage = 'cancelled: the run_code request was cancelled';
  // Waiting for a worker counts against the wall time, and a cancel ends the wait.
  const waiting = new AbortController();
  let onWall = () => waiting.abort(new Error(wallMessage));
  const wallTimer = setTimeout(() => onWall(), limits.wallMs);
  const waitSignal = signal ? AbortSignal.any([signal, waiting.signal]) : waiting.signal;
  let pooled: PoolWorker;
  try {
    pooled = await acquire(waitSignal);
  } catch (error) {
    clearTimeout(wallTimer);
    if (signal?.aborted) return stopped('cancelled', cancelMessage);
    if (waiting.signal.aborted) return stopped('wall', wallMessage);
    return stopped('error', (error as Error).message);
  }
  const { worker } = pooled;
  const meter = new SharedArrayBuffer(2 * Float64Array.BYTES_PER_ELEMENT);
  const cpu = new Float64Array(meter);
  const calls = new AbortController();
  let inFlight = 0;
  return new Promise<RunOutcome>((resolve) => {
    let over = false;
    const finish = (outcome: RunOutcome, keepWorker: boolean) => {
      if (over) return;
      over = true;
      clearTimeout(wallTimer);
      clearInterval(watch);
      signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      calls.abort(new Error('the run has ended'));
      if (keepWorker) release(pooled);
      else retire(pooled);
      resolve(outcome);
    };
    const post = (message: ToWorker) => {
      if (over) return;
      try {
        worker.postMessage(message);
      } catch (error) {
        if (message.kind === 'reply' && message.ok) {
          post({
            kind: 'reply',
            id: message.id,
            ok: false,
            message: `the result cannot be passed on: ${String(error)}`,
          });
        }
      }
    };
    const onMessage = (message: FromWorker) => {
      if (message.kind === 'log') stats.logs.push(message.line);
      else if (message.kind === 'call') {
        stats.calls++;
        inFlight++;
        stats.peakInFlight = Math.max(stats.peakInFlight, inFlight);
        callTool(message.name, message.args, calls.signal)
          .then(
            (value) => post({ kind: 'reply', id: message.id, ok: true, value }),
            (error: unknown) =>
              post({ kind: 'reply', id: message.id, ok: false, message: (error as Error)?.message ?? String(error) }),
          )
          .finally(() => inFlight--);
      } else if (message.kind === 'done') {
        const { outcome } = message;
        // A run stopped by a limit leaves an engine that cannot free what it held: that worker ends.
        finish(outcome, outcome.ok || outcome.reason === 'error' || outcome.reason === 'calls');
      }
    };
    const onError = (error: Error & { code?: string }) =>
      finish(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? stopped('memory', `memory limit: the sandbox ran out of memory (${error.message})`)
          : stopped('error', `the sandbox stopped: ${error.message}`),
        false,
      );
    const onExit = (code: number) => finish(stopped('error', `the sandbox stopped (exit ${code})`), false);
    const onAbort = () => finish(stopped('cancelled', cancelMessage), false);
    onWall = () => finish(stopped('wall', wallMessage), false);
    const watch = setInterval(() => {
      const since = cpu[0]!;
      const now = performance.timeOrigin + performance.now();
      if (since > 0 && cpu[1]! + (now - since) > limits.cpuMs + CPU_GRACE_MS) {
        finish(stopped('cpu', `CPU time limit: the program ran for more than ${limits.cpuMs} ms`), false);
      }
    }, WATCH_MS);
    watch.unref();
    worker.on('message', onMessage).once('error', onError).once('exit', onExit);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) return onAbort();
    post({ kind: 'run', source, namespaces, limits: { ...limits, wallMs: NO_WALL_MS }, meter });
  });
}
