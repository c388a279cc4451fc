/**
 * Code mode's `run_code` tool: its definition (the functions a program may
 * call, declared in its description for a small catalog, found through
 * `search_tools` for a large one), and one run: the program goes to the
 * sandbox (a worker thread of sandboxPool.ts, loaded on the first run only), each of its tool
 * calls goes back out as a direct tools/call on the frontend's one path
 * (policy, ask, overrides, pins, rate limits, audit naming the run,
 * cancellation), and what the program returns comes back, cut to a bound
 * with its size stated, with its logs. Intermediate results stay in the
 * sandbox: only the returned value reaches the model.
 *
 * A 2026-07-28 client is asked for input (an `ask` approval, a backend's
 * elicitation) in a result, and retries: a program whose call needs input
 * stops, run_code answers `input_required` with that call's questions, and
 * the retry runs the program again, each call already made answered from the
 * first attempt's journal (matched by tool and arguments), the waiting call
 * given the client's answers. The journal is kept (SuspendedRuns: in memory,
 * or with replicas in Redis) SUSPEND_TTL_MS, bound to the profile and program.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { CallToolRequestParams, CallToolResult, InputRequiredResult, Tool } from '@modelcontextprotocol/server';
import { isInputRequiredResult, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { SandboxLimits, ToolNamespaces } from './sandboxRunner.js';

/** Name of the code meta-tool. */
export const RUN_CODE_TOOL = 'run_code';
/** The longest returned value (characters of JSON) that comes back whole. */
export const MAX_RESULT_CHARS = 24_000;
/** The longest program accepted. */
export const MAX_PROGRAM_CHARS = 100_000;

/** The functions of one client, ready for a run: namespaces for the sandbox, declarations for the model. */
export interface CodeTools {
  namespaces: ToolNamespaces;
  /** `declare const tools: {...}`, when the catalog is small enough to put in the description. */
  declarations: string | undefined;
  /** Number of functions. */
  count: number;
}

/** `run_code`'s definition; `declarations` absent: the functions are found with search_tools. */
export function runCodeDefinition(declarations: string | undefined): Tool {
  const how = declarations
    ? `The functions you may call:\n${declarations}`
    : 'Find the functions with search_tools: each result gives its function (`call`) and its arguments as TypeScript.';
  return {
    name: RUN_CODE_TOOL,
    title: 'Run code against the tools',
    description:
      'Run a short JavaScript program (the body of an async function) that calls tools as async functions, ' +
      'e.g. `const r = await tools.github.create_issue({ title: "x" }); return r.number;`. Chain, filter and ' +
      'combine results in the program and return only what you need (Promise.all runs calls in parallel); ' +
      'console.log output comes back too. A tool returns its structured content, else its text (parsed when ' +
      'JSON); a tool error throws. No network, files or timers. ' +
      how,
    inputSchema: {
      type: 'object',
      properties: { code: { type: 'string', description: 'The program: the body of an async function.' } },
      required: ['code'],
    },
  };
}

/** The value a program gets from one tool result (see the definition's description). */
export function programValue(name: string, result: CallToolResult | InputRequiredResult): unknown {
  if (isInputRequiredResult(result)) {
    throw new Error(
      `${name} needs input from the user, which a program cannot ask for on this connection: call it directly`,
    );
  }
  const texts = (result.content ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : []));
  if (result.isError) throw new Error(`${name} failed: ${texts.join('\n') || 'tool error'}`);
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (texts.length === (result.content ?? []).length) {
    const text = texts.join('\n');
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return result.content;
}

/** A returned value as the model gets it: whole up to the bound, else cut with its size stated. */
export function boundedValue(json: string | undefined, max = MAX_RESULT_CHARS): string {
  if (json === undefined) return 'undefined';
  if (json.length <= max) return json;
  return `${json.slice(0, max)}… [truncated: the returned value is ${json.length} characters of JSON; return a smaller part or a summary]`;
}

/** A 2026-07-28 retry's answers, for the one call that asked. */
export interface InputAnswers {
  inputResponses: Record<string, unknown> | undefined;
  requestState: string | undefined;
}

/** One direct tools/call made for a program, on the frontend's path, naming its run. */
export type DirectCall = (
  params: CallToolRequestParams,
  options: { signal: AbortSignal; run: string; answers?: InputAnswers | undefined },
) => Promise<CallToolResult | InputRequiredResult>;

/** What a call of a suspended run returned (replayed on the retry). */
type Recorded = { ok: true; value: unknown } | { ok: false; message: string };

/** A run waiting for a 2026-07-28 client's answers, as kept (JSON: it may go to Redis). */
export interface SuspendedRun {
  owner: string;
  /** sha256 of the program: the retry must send the same one. */
  code: string;
  run: string;
  /** Tool and arguments -> what each such call returned, in order. */
  journal: [string, Recorded[]][];
  /** The call that asked, and the requestState its answer must carry. */
  pending: string;
  state: string | undefined;
}

/**
 * Where suspended runs wait for their retry, by the token in run_code's
 * requestState: this process's memory, or, with replicas, Redis
 * (redisSuspendedRuns.ts), so the retry may land on any of them.
 */
export interface SuspendedRuns {
  keep(token: string, run: SuspendedRun, ttlMs: number): Promise<void>;
  /** The run a token names, taken: a state is used once. */
  take(token: string): Promise<SuspendedRun | undefined>;
}

/** Suspended runs in memory: at most `max`, each until its TTL. */
export class LocalSuspendedRuns implements SuspendedRuns {
  private readonly runs = new Map<string, { run: SuspendedRun; expires: number }>();
  constructor(private readonly max = 256) {}

  keep(token: string, run: SuspendedRun, ttlMs: number): Promise<void> {
    const now = Date.now();
    for (const [key, old] of this.runs) if (old.expires < now || this.runs.size >= this.max) this.runs.delete(key);
    this.runs.set(token, { run, expires: now + ttlMs });
    return Promise.resolve();
  }

  take(token: string): Promise<SuspendedRun | undefined> {
    const found = this.runs.get(token);
    this.runs.delete(token);
    return Promise.resolve(found && found.expires >= Date.now() ? found.run : undefined);
  }
}

/** How long a suspended run waits for its retry. */
export const SUSPEND_TTL_MS = 10 * 60_000;
const STATE_PREFIX = 'sb-code:';
const digest = (code: string): string => createHash('sha256').update(code).digest('base64url');

/** Who a run is, for its retry: the profile (and in gateway mode the person), and the client's era. */
export interface RunCaller {
  owner: string;
  /** A 2026-07-28 request's answers and state (absent: a 2025-era request). */
  retry?: InputAnswers | undefined;
}

/** The suspended run a retry's requestState names (taken: a state is used once). */
async function resumed(
  store: SuspendedRuns,
  caller: RunCaller,
  code: string,
): Promise<(SuspendedRun & { calls: Map<string, Recorded[]> }) | undefined> {
  const state = caller.retry?.requestState;
  if (!state?.startsWith(STATE_PREFIX)) return undefined;
  const found = await store.take(state);
  if (!found || found.owner !== caller.owner || found.code !== digest(code)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState');
  }
  return { ...found, calls: new Map(found.journal) };
}

/** Runs one `run_code` call; see the file header. */
export async function runCode(
  tools: CodeTools,
  args: Record<string, unknown> | undefined,
  direct: DirectCall,
  signal: AbortSignal,
  caller: RunCaller,
  store: SuspendedRuns,
  limits?: Partial<SandboxLimits>,
): Promise<CallToolResult | InputRequiredResult> {
  const code = args?.code;
  if (typeof code !== 'string' || code.trim() === '') {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${RUN_CODE_TOOL}: "code" must be a non-empty string`);
  }
  if (code.length > MAX_PROGRAM_CHARS) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `${RUN_CODE_TOOL}: "code" is over ${MAX_PROGRAM_CHARS} characters`,
    );
  }
  const replay = await resumed(store, caller, code);
  const run = replay?.run ?? `run-${randomUUID().slice(0, 8)}`;
  const journal = new Map<string, Recorded[]>();
  const record = (key: string, entry: Recorded) => journal.set(key, [...(journal.get(key) ?? []), entry]);
  let asking: { key: string; result: InputRequiredResult } | undefined;
  let answered = false;
  const stopper = new AbortController();
  const { runInWorker, DEFAULT_LIMITS } = await import('./sandboxPool.js');
  const outcome = await runInWorker(
    code,
    tools.namespaces,
    async (name, callArgs, callSignal) => {
      const key = `${name}\u0000${JSON.stringify(callArgs ?? null)}`;
      const earlier = replay?.calls.get(key)?.shift();
      if (earlier) {
        record(key, earlier);
        if (earlier.ok) return earlier.value;
        throw new Error(earlier.message);
      }
      const params: CallToolRequestParams = callArgs === undefined ? { name } : { name, arguments: callArgs };
      const answers =
        replay && !answered && key === replay.pending
          ? { inputResponses: caller.retry?.inputResponses, requestState: replay.state }
          : undefined;
      if (answers) answered = true;
      const result = await direct(params, { signal: callSignal, run, answers });
      if (caller.retry && isInputRequiredResult(result)) {
        asking ??= { key, result };
        stopper.abort();
        throw new Error(`${name} is waiting for input`);
      }
      try {
        const value = programValue(name, result);
        record(key, { ok: true, value });
        return value;
      } catch (error) {
        record(key, { ok: false, message: (error as Error).message });
        throw error;
      }
    },
    { ...DEFAULT_LIMITS, ...limits },
    AbortSignal.any([signal, stopper.signal]),
  );
  if (asking && !signal.aborted) {
    const { result } = asking;
    const state = `${STATE_PREFIX}${randomUUID()}`;
    const kept: SuspendedRun = {
      owner: caller.owner,
      code: digest(code),
      run,
      journal: [...journal],
      pending: asking.key,
      state: result.requestState,
    };
    await store.keep(state, kept, SUSPEND_TTL_MS);
    return { ...result, requestState: state };
  }
  const head = `${run}: ${outcome.calls} tool call${outcome.calls === 1 ? '' : 's'}`;
  const logs = outcome.logs.length === 0 ? '' : `\nLogs:\n${outcome.logs.join('\n')}`;
  if (outcome.ok) {
    return { content: [{ type: 'text', text: `${head}. Returned: ${boundedValue(outcome.json)}${logs}` }] };
  }
  const where = outcome.line === undefined ? '' : ` (line ${outcome.line})`;
  const text = `${head}. Stopped by the ${outcome.reason === 'error' ? 'program' : `${outcome.reason} limit`}${where}: ${outcome.message}${logs}`;
  return { content: [{ type: 'text', text }], isError: true };
}
