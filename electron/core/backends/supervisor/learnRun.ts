/**
 * Learn mode (`sandbox learn`, the card's Learn permissions): runs a stdio
 * server once in a permissive, recording sandbox, drives it through
 * initialize, every list and the calls the user asked for, keeps it up for a
 * bounded window, and proposes the smallest grant covering what it did
 * (learnProposal.ts), to set against its current setting (learnDiff.ts).
 *
 * On Linux the server runs under bubblewrap with the machine's files as it
 * would see them unsandboxed, under strace (learningBubblewrapArgs), its
 * network only through a host-filtering proxy that lets everything through
 * and records the names asked for. The record lives in a private folder
 * under the server's sandbox state and is deleted once read; it holds no
 * argument or variable of the server, and the proposal only paths and
 * `host:port`. On macOS and Windows (srt), nothing records what a server is
 * let do: learnByRefusals.ts learns from what the sandbox refuses instead.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { VERSION } from '../../../../shared/version.js';
import { findCommand, searchPath } from '../process/commandLookup.js';
import { GroupStdioTransport } from '../transport/stdioTransport.js';
import { LEARN_PROXY_ADDRESS, learningBubblewrapArgs } from '../process/sandbox/bubblewrapArgs.js';
import { HostFilterProxy } from '../process/sandbox/hostFilterProxy.js';
import { parseTrace } from '../process/sandbox/learnTrace.js';
import { proposeGrant, type LearnedGrant } from '../process/sandbox/learnProposal.js';
import { privateFolders, resolveSandboxPolicy } from '../process/sandbox/sandboxPolicy.js';
import { packageRegistryHosts } from '../process/sandbox/sandboxedLaunch.js';
import { sandboxSupport } from '../process/sandbox/sandboxSupport.js';

/** One call to make while learning. */
export interface LearnCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What a learned run is given. */
export interface LearnRequest {
  /** The server's launch line, its env already resolved and laid over the user's environment. */
  launch: { id: string; command: string; args: string[]; cwd: string | undefined; env: Record<string, string> };
  /** Switchboard's state directory. */
  stateDir: string;
  /** `proxy.extraPath`. */
  extraPath: string[];
  /** Tool calls made after the lists. */
  calls: LearnCall[];
  /** How long the server stays up, recorded, after the calls (its own start-up work, timers). */
  windowMs: number;
  /** The whole run's bound. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The platform (tests give another). */
  platform?: NodeJS.Platform;
}

/** How one call went (its result is not kept: it may hold the user's data). */
export interface LearnCallOutcome {
  name: string;
  ok: boolean;
  /** A failed call's message. */
  error?: string;
}

/** What a learned run found. */
export interface LearnResult {
  grant: LearnedGrant;
  calls: LearnCallOutcome[];
  /** How many items each list gave. */
  listed: { tools: number; resources: number; prompts: number };
  durationMs: number;
}

const PLATFORM_NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: 'macOS', win32: 'Windows' };

/** A Unix socket path must fit in 108 bytes. */
const MAX_SOCKET_PATH = 100;

/** The largest message read from the server while learning. */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Refuses where learn mode cannot run, saying why and what to install. */
async function learningTools(request: LearnRequest): Promise<{ bwrap: string; strace: string }> {
  const platform = request.platform ?? process.platform;
  if (platform !== 'linux') {
    const name = PLATFORM_NAMES[platform] ?? platform;
    throw new SwitchboardError(
      ErrorCode.NotSupported,
      `recording a server's accesses takes bubblewrap and strace, on Linux; on ${name} learn mode learns from what the sandbox refuses instead (learnByRefusals)`,
      { platform: name },
    );
  }
  const support = await sandboxSupport(request.launch.env);
  if (!support.available)
    throw new SwitchboardError(ErrorCode.SandboxUnavailable, `learn mode cannot run: ${support.reason}`, {
      reason: support.reason,
    });
  if (support.engine !== 'bubblewrap')
    throw new SwitchboardError(ErrorCode.NotSupported, 'learn mode runs under bubblewrap only', {
      engine: support.engine,
    });
  const path = searchPath(request.launch.env);
  const strace = findCommand('strace', path);
  for (const [name, found] of [
    ['strace', strace],
    ['socat', findCommand('socat', path)],
  ] as const) {
    if (!found) {
      const reason = `learn mode needs ${name}, which is not installed (Debian/Ubuntu: apt install ${name})`;
      throw new SwitchboardError(ErrorCode.SandboxUnavailable, reason, { reason });
    }
  }
  return { bwrap: support.bwrap, strace: strace as string };
}

/** Waits `ms`, or until `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** What driving a learned server gave: how many items each list had, and how each call went. */
export interface LearnDriven {
  listed: LearnResult['listed'];
  calls: LearnCallOutcome[];
}

/**
 * Drives a server being learned: initialize, every list, the calls asked
 * for, then the window; closes the client (its stdin ends, it exits). Each
 * failed call's text goes to `onFailure` (a sandbox's refusal may be named
 * only there). Throws what connecting or listing threw.
 */
export async function driveLearned(
  transport: GroupStdioTransport,
  request: LearnRequest,
  signal: AbortSignal,
  onFailure: (text: string) => void = () => undefined,
): Promise<LearnDriven> {
  const client = new Client({ name: 'switchboard-learn', version: VERSION });
  const listed = { tools: 0, resources: 0, prompts: 0 };
  const calls: LearnCallOutcome[] = [];
  try {
    await client.connect(transport, { signal });
    const capabilities = client.getServerCapabilities() ?? {};
    const options = { signal };
    if (capabilities.tools) listed.tools = (await client.listTools(undefined, options)).tools.length;
    if (capabilities.resources) {
      listed.resources = (await client.listResources(undefined, options)).resources.length;
      await client.listResourceTemplates(undefined, options);
    }
    if (capabilities.prompts) listed.prompts = (await client.listPrompts(undefined, options)).prompts.length;
    for (const call of request.calls) {
      try {
        const result = await client.callTool({ name: call.name, arguments: call.arguments }, { signal });
        const failed = result.isError === true;
        const text = failed
          ? (result.content as { type: string; text?: string }[] | undefined)?.find((block) => block.text)?.text
          : undefined;
        if (failed && text) onFailure(text);
        calls.push({ name: call.name, ok: !failed, ...(failed ? { error: (text ?? 'failed').slice(0, 300) } : {}) });
      } catch (error) {
        if (signal.aborted) throw error;
        onFailure((error as Error).message);
        calls.push({ name: call.name, ok: false, error: (error as Error).message.slice(0, 300) });
      }
    }
    await pause(request.windowMs, signal);
    return { listed, calls };
  } finally {
    // Ends its stdin: it exits (strace with it, its record complete); then the group is reaped.
    await client.close().catch(() => undefined);
  }
}

/** What a learned run that failed says: over its time, cancelled, or the server did not start or answer. */
export function learnFailure(error: unknown, request: LearnRequest, signal: AbortSignal): SwitchboardError {
  const id = request.launch.id;
  if (signal.aborted && !(request.signal?.aborted ?? false))
    return new SwitchboardError(
      ErrorCode.Timeout,
      `learning "${id}" took longer than ${Math.round(request.timeoutMs / 1000)} s`,
      { backend: id },
    );
  if (request.signal?.aborted)
    return new SwitchboardError(ErrorCode.Cancelled, `learning "${id}" was cancelled`, { backend: id });
  return new SwitchboardError(
    ErrorCode.ConnectFailed,
    `"${id}" did not start or answer while it was learned: ${(error as Error).message}`,
    { backend: id },
  );
}

/** Runs the server recorded and proposes its grant. */
export async function learnPermissions(request: LearnRequest): Promise<LearnResult> {
  const started = performance.now();
  const { launch } = request;
  const tools = await learningTools(request);
  const signal = AbortSignal.any([AbortSignal.timeout(request.timeoutMs), ...(request.signal ? [request.signal] : [])]);
  const home = launch.env['HOME'] || homedir();
  const policy = resolveSandboxPolicy({
    backendId: launch.id,
    resolvedCommand: findCommand(launch.command, searchPath(launch.env), launch.cwd ? { cwd: launch.cwd } : {}),
    args: launch.args,
    cwd: launch.cwd,
    setting: { enabled: true, read: [], write: [], network: 'none' },
    home,
    stateDir: request.stateDir,
    extraPath: request.extraPath,
  });
  const base = privateFolders(request.stateDir, launch.id).base;
  const folder = await mkdtemp(join(base, 'learn-'));
  const inFolder = join(folder, 'proxy.sock');
  const socket =
    Buffer.byteLength(inFolder) <= MAX_SOCKET_PATH
      ? inFolder
      : join(tmpdir(), `switchboard-learn-${randomBytes(6).toString('hex')}.sock`);
  const traceFile = join(folder, 'trace');
  const hosts: string[] = [];
  let proxy: HostFilterProxy | undefined;
  let transport: GroupStdioTransport | undefined;
  try {
    proxy = await HostFilterProxy.open(
      socket,
      [],
      () => undefined,
      (target) => hosts.push(target),
    );
    transport = new GroupStdioTransport({
      command: tools.bwrap,
      args: learningBubblewrapArgs(
        { cwd: policy.cwd, proxySocket: socket, strace: tools.strace, traceFile },
        launch.command,
        launch.args,
      ),
      env: launch.env,
      ...(launch.cwd === undefined ? {} : { cwd: policy.cwd }),
      maxMessageBytes: MAX_MESSAGE_BYTES,
      backendId: launch.id,
    });
    let driven: LearnDriven;
    try {
      driven = await driveLearned(transport, request, signal);
    } catch (error) {
      throw learnFailure(error, request, signal);
    }
    const { listed, calls } = driven;
    const trace = parseTrace(await readFile(traceFile, 'utf8').catch(() => ''));
    const grant = proposeGrant({
      trace,
      hosts,
      policy,
      ignore: [base, socket],
      defaultHosts: packageRegistryHosts(launch.command, launch.env),
      ownAddresses: [LEARN_PROXY_ADDRESS],
    });
    return { grant, calls, listed, durationMs: Math.round(performance.now() - started) };
  } finally {
    await transport?.close().catch(() => undefined);
    await proxy?.close().catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
  }
}
