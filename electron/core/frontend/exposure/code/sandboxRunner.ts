/**
 * Code mode's sandbox: runs one model-written async JavaScript program in
 * QuickJS compiled to WebAssembly (quickjs-emscripten), a fresh runtime per
 * run. The program sees the language, `tools` (one async function per tool it
 * may call, each a call back into the host) and `console`; nothing else of
 * the host: no filesystem, network, timers or modules, and a clock that reads
 * whole seconds. Values cross the boundary as JSON text only, so no host
 * object is ever reachable from inside. Limits: CPU time (the interrupt
 * handler), memory and stack (the runtime's own), wall time, calls per run
 * and calls in flight (Promise.all runs up to that many at once, the rest
 * wait), log bytes and the returned value's size. A limit stops the run with
 * an error naming it and, when the engine gives it, the program's line.
 *
 * Runs in code mode's worker threads (sandboxWorker.ts, sandboxPool.ts); the
 * engine is loaded there, never on the proxy's event loop nor for a client
 * whose profile does not use code mode.
 */
import type { QuickJSContext, QuickJSHandle, QuickJSSyncVariant, QuickJSWASMModule } from 'quickjs-emscripten-core';

/** What bounds one run. */
export interface SandboxLimits {
  /** Time the engine may spend executing the program (not waiting for tools). */
  cpuMs: number;
  /** The runtime's heap. */
  memoryBytes: number;
  /** The interpreter's stack (deep recursion stops here). */
  stackBytes: number;
  /** The whole run, waiting for tools included. */
  wallMs: number;
  /** Tool calls one run may make. */
  maxCalls: number;
  /** Tool calls running at once; more wait for a slot. */
  maxInFlight: number;
  /** Bytes of console output kept; the rest is dropped, and the logs say so. */
  maxLogBytes: number;
  /** Arguments one call may pass, as JSON characters. */
  maxArgumentChars: number;
}

/** The defaults: generous for a short program, small next to the proxy. */
export const DEFAULT_LIMITS: SandboxLimits = {
  cpuMs: 2_000,
  memoryBytes: 32 * 1024 * 1024,
  // Below what the host's own stack takes for the interpreter's frames (V8 would overflow first past ~400 KiB).
  stackBytes: 256 * 1024,
  wallMs: 60_000,
  maxCalls: 100,
  maxInFlight: 8,
  maxLogBytes: 16 * 1024,
  maxArgumentChars: 1024 * 1024,
};

/** The limit that stopped a run (`error` is the program's own uncaught error). */
export type StopReason = 'cpu' | 'memory' | 'stack' | 'wall' | 'calls' | 'cancelled' | 'error';

/** How a run ended. */
export type RunOutcome = RunStats &
  (
    | { ok: true; /** The returned value as JSON (absent: the program returned undefined). */ json: string | undefined }
    | { ok: false; reason: StopReason; message: string; line?: number }
  );

/** What every outcome reports. */
export interface RunStats {
  logs: string[];
  /** Tool calls made. */
  calls: number;
  /** The most calls that ran at once. */
  peakInFlight: number;
}

/** What the program's tool functions call. A rejection's message is what the program's catch sees. */
export type ToolCaller = (
  name: string,
  args: Record<string, unknown> | undefined,
  signal: AbortSignal,
) => Promise<unknown>;

/** What a run reports as it goes, for a host that may have to stop it from outside (sandboxPool.ts). */
export interface RunHooks {
  /** Each kept line of console output, as it is printed. */
  log?: (line: string) => void;
  /**
   * Written as the engine works: [0] when the current slice of engine work
   * began (ms since the epoch, 0 between slices), [1] the CPU ms used so far.
   */
  meter?: Float64Array;
}

/** `tools.<namespace>.<fn>` -> the tool name the host is called with. */
export type ToolNamespaces = Record<string, Record<string, string>>;

let engine: Promise<QuickJSWASMModule> | undefined;

/**
 * The WebAssembly engine, compiled once per thread on first use (imported
 * here, so the main thread, which only reads this file's limits, never loads it).
 */
export function loadEngine(): Promise<QuickJSWASMModule> {
  engine ??= Promise.all([import('quickjs-emscripten-core'), import('@jitl/quickjs-wasmfile-release-sync')]).then(
    ([core, variant]) =>
      // The package's types describe its CommonJS face; under ESM the variant is the default export.
      core.newQuickJSWASMModuleFromVariant(
        ((variant as { default?: unknown }).default ?? variant) as QuickJSSyncVariant,
      ),
  );
  return engine;
}

/** The program's line in the wrapper's stack text (the wrapper adds one line before it). */
function lineOf(stack: string | undefined): number | undefined {
  const match = /program\.js:(\d+)/.exec(stack ?? '');
  if (!match) return undefined;
  const line = Number(match[1]) - 1;
  return line >= 1 ? line : undefined;
}

/**
 * Set up inside the context before the program: `tools`, `console`, the
 * coarse clock, and `__sb_start`, which runs the program once and reports
 * how it ended. Host functions are taken into closures and removed from the
 * global object, so the program cannot call them (or replace JSON under them).
 */
const BOOTSTRAP = `(() => {
  const g = globalThis;
  const call = g.__sb_call, log = g.__sb_log, finish = g.__sb_finish, fail = g.__sb_fail;
  const names = JSON.parse(g.__sb_names);
  delete g.__sb_call; delete g.__sb_log; delete g.__sb_finish; delete g.__sb_fail; delete g.__sb_names;
  const parse = JSON.parse, stringify = JSON.stringify, freeze = Object.freeze, Str = String;
  const tools = {};
  for (const ns of Object.keys(names)) {
    const fns = {};
    for (const fn of Object.keys(names[ns])) {
      const tool = names[ns][fn];
      fns[fn] = async (args) => parse(await call(tool, args === undefined ? '' : stringify(args)));
    }
    tools[ns] = freeze(fns);
  }
  g.tools = freeze(tools);
  const show = (v) => { if (typeof v === 'string') return v; try { const s = stringify(v); return s === undefined ? Str(v) : s; } catch { return Str(v); } };
  const logger = (level) => (...args) => log(level, args.map(show).join(' '));
  g.console = freeze({ log: logger('log'), info: logger('info'), warn: logger('warn'), error: logger('error'), debug: logger('debug') });
  const RealDate = Date, realNow = RealDate.now;
  const coarse = () => Math.floor(realNow() / 1000) * 1000;
  g.Date = new Proxy(RealDate, {
    construct: (target, args) => (args.length === 0 ? new target(coarse()) : new target(...args)),
    apply: () => new RealDate(coarse()).toString(),
    get: (target, key) => (key === 'now' ? coarse : target[key]),
  });
  g.__sb_start = (program) => {
    delete g.__sb_start;
    program().then(
      (value) => { let json; try { json = stringify(value); } catch (e) { fail('TypeError', 'the returned value is not JSON: ' + (e && e.message), ''); return; } finish(json === undefined ? '' : json, json === undefined); },
      (e) => fail(Str(e && e.name || 'Error'), Str(e && e.message !== undefined ? e.message : e), Str(e && e.stack || '')),
    );
  };
})();`;

/** Runs `source` (the body of an async function) against `tools`; see the file header. */
export async function runProgram(
  source: string,
  namespaces: ToolNamespaces,
  callTool: ToolCaller,
  limits: SandboxLimits,
  signal?: AbortSignal,
  hooks: RunHooks = {},
): Promise<RunOutcome> {
  const { meter } = hooks;
  const quickjs = await loadEngine();
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const vm = runtime.newContext();
  const calls = new AbortController();
  const stats: RunStats = { logs: [], calls: 0, peakInFlight: 0 };
  let logBytes = 0;
  let inFlight = 0;
  const waiting: (() => void)[] = [];
  let cpuUsed = 0;
  let sliceStart = 0;
  let stopped: { reason: StopReason; message: string; line?: number } | undefined;
  let ended: { json: string | undefined } | undefined;
  let settle: () => void = () => undefined;
  const over = new Promise<void>((resolve) => (settle = resolve));
  const stop = (reason: StopReason, message: string, line?: number) => {
    if (stopped || ended) return;
    stopped = line === undefined ? { reason, message } : { reason, message, line };
    settle();
  };
  runtime.setInterruptHandler(() => {
    if (stopped) return true;
    if (cpuUsed + (performance.now() - sliceStart) > limits.cpuMs) {
      stop('cpu', `CPU time limit: the program ran for more than ${limits.cpuMs} ms`);
      return true;
    }
    return false;
  });
  const onAbort = () => stop('cancelled', 'cancelled: the run_code request was cancelled');
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  const wall = setTimeout(
    () => stop('wall', `wall time limit: the run took more than ${limits.wallMs} ms`),
    limits.wallMs,
  );
  /** Runs engine work, counting its CPU time, then reports an uncaught engine error. */
  let closed = false;
  let poisoned = false;
  const inEngine = (work: () => { error?: QuickJSHandle } | undefined) => {
    if (stopped || closed) return;
    sliceStart = performance.now();
    if (meter) meter[0] = performance.timeOrigin + sliceStart;
    let result: { error?: QuickJSHandle } | undefined;
    try {
      result = work();
    } catch (error) {
      // The host's stack ran out inside the engine (V8's RangeError), or the engine aborted.
      poisoned = true;
      const message = error instanceof RangeError ? 'stack overflow' : String(error);
      return engineError({ name: 'InternalError', message });
    } finally {
      cpuUsed += performance.now() - sliceStart;
      if (meter) {
        meter[1] = cpuUsed;
        meter[0] = 0;
      }
    }
    if (result?.error) {
      const error = vm.dump(result.error) as { name?: string; message?: string; stack?: string } | string | null;
      result.error.dispose();
      // QuickJS throws null when it cannot even allocate the error: out of memory.
      engineError(
        error === null ? { message: 'out of memory' } : typeof error === 'object' ? error : { message: String(error) },
      );
    }
  };
  const engineError = (error: {
    name?: string | undefined;
    message?: string | undefined;
    stack?: string | undefined;
  }) => {
    const message = `${error.name ?? 'Error'}: ${error.message ?? ''}`;
    const line = lineOf(error.stack);
    if (stopped) return;
    if (/out of memory/i.test(message))
      stop('memory', `memory limit: the program used more than ${limits.memoryBytes} bytes`, line);
    else if (/stack overflow/i.test(message))
      stop('stack', `stack limit: the program recursed deeper than ${limits.stackBytes} bytes of stack`, line);
    else stop('error', message, line);
  };
  const pump = () =>
    inEngine(() => {
      const jobs = runtime.executePendingJobs();
      if ('error' in jobs && jobs.error) return { error: jobs.error };
      jobs.dispose();
      return undefined;
    });
  // A freed slot passes straight to the next waiting call, so inFlight never dips between them.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else inFlight--;
  };
  const slot = (): Promise<void> | undefined => {
    if (inFlight < limits.maxInFlight) {
      inFlight++;
      return undefined;
    }
    return new Promise((resolve) => waiting.push(resolve));
  };
  const hostCall = async (name: string, argsJson: string): Promise<string> => {
    stats.calls++;
    if (stats.calls > limits.maxCalls) {
      const message = `call limit: a run may make at most ${limits.maxCalls} tool calls`;
      stop('calls', message);
      throw new Error(message);
    }
    if (argsJson.length > limits.maxArgumentChars) {
      throw new Error(`${name}: arguments over ${limits.maxArgumentChars} characters of JSON`);
    }
    const args = argsJson === '' ? undefined : (JSON.parse(argsJson) as unknown);
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
      throw new Error(`${name}: arguments must be an object`);
    }
    await slot();
    stats.peakInFlight = Math.max(stats.peakInFlight, inFlight);
    try {
      if (stopped) throw new Error('the run has stopped');
      const value = await callTool(name, args as Record<string, unknown> | undefined, calls.signal);
      return JSON.stringify(value === undefined ? null : value);
    } finally {
      release();
    }
  };
  const disposables: QuickJSHandle[] = [];
  const keep = (handle: QuickJSHandle) => (disposables.push(handle), handle);
  try {
    const defineFn = (name: string, fn: (...args: QuickJSHandle[]) => QuickJSHandle | undefined) =>
      vm.setProp(vm.global, name, keep(vm.newFunction(name, fn)));
    defineFn('__sb_call', (nameHandle, argsHandle) => {
      const deferred = vm.newPromise();
      const name = vm.getString(nameHandle);
      const argsJson = vm.getString(argsHandle);
      hostCall(name, argsJson)
        .then(
          (json) => {
            if (closed || !deferred.alive) return;
            const text = vm.newString(json);
            deferred.resolve(text);
            text.dispose();
          },
          (error: unknown) => {
            if (closed || !deferred.alive) return;
            const thrown = vm.newError({ name: 'ToolError', message: (error as Error).message ?? String(error) });
            deferred.reject(thrown);
            thrown.dispose();
          },
        )
        .finally(() => {
          if (closed) return;
          if (deferred.alive) deferred.dispose();
          pump();
          check();
        });
      return deferred.handle;
    });
    defineFn('__sb_log', (levelHandle, textHandle) => {
      if (logBytes > limits.maxLogBytes) return undefined;
      const text = `${vm.getString(levelHandle) === 'log' ? '' : `[${vm.getString(levelHandle)}] `}${vm.getString(textHandle)}`;
      logBytes += text.length;
      const line = logBytes > limits.maxLogBytes ? `[logs cut at ${limits.maxLogBytes} bytes]` : text;
      stats.logs.push(line);
      hooks.log?.(line);
      return undefined;
    });
    defineFn('__sb_finish', (jsonHandle, undefinedHandle) => {
      const json = vm.getString(jsonHandle);
      if (!stopped) ended = { json: vm.dump(undefinedHandle) === true ? undefined : json };
      settle();
      return undefined;
    });
    defineFn('__sb_fail', (nameHandle, messageHandle, stackHandle) => {
      engineError({
        name: vm.getString(nameHandle),
        message: vm.getString(messageHandle),
        stack: vm.getString(stackHandle),
      });
      return undefined;
    });
    const names = keep(vm.newString(JSON.stringify(namespaces)));
    vm.setProp(vm.global, '__sb_names', names);
    inEngine(() => failed(vm, vm.evalCode(BOOTSTRAP, 'bootstrap.js')));
    inEngine(() => failed(vm, vm.evalCode(`__sb_start(async () => {\n${source}\n});`, 'program.js')));
    pump();
    function check() {
      if (!stopped && !ended && inFlight === 0 && waiting.length === 0 && !runtime.hasPendingJob()) {
        // Nothing left to run and nothing to wait for: the program awaits a promise that never settles.
        stop('error', 'the program is waiting for a promise that never settles');
      }
    }
    check();
    await over;
  } finally {
    closed = true;
    clearTimeout(wall);
    signal?.removeEventListener('abort', onAbort);
    calls.abort(new Error('the run has ended'));
    if (poisoned || stopped || inFlight > 0) {
      // A run stopped mid-work leaves objects the engine cannot free (QuickJS aborts the whole
      // module on them): drop this instance of the engine with its memory; the next run loads another.
      engine = undefined;
    } else {
      for (const handle of disposables) if (handle.alive) handle.dispose();
      disposeQuietly(vm, runtime);
    }
  }
  if (ended && !stopped) return { ok: true, json: ended.json, ...stats };
  const end = stopped!;
  return { ok: false, ...end, ...stats };
}

/** The error of an evaluation, for inEngine; a value is dropped. */
function failed(
  vm: QuickJSContext,
  result: ReturnType<QuickJSContext['evalCode']>,
): { error?: QuickJSHandle } | undefined {
  if (result.error) return { error: result.error };
  void vm;
  result.value.dispose();
  return undefined;
}

/** Frees the context and runtime of a run that ended cleanly; an engine that fails to is dropped. */
function disposeQuietly(vm: QuickJSContext, runtime: { dispose(): void }): void {
  try {
    vm.dispose();
    runtime.dispose();
  } catch {
    engine = undefined;
  }
}
