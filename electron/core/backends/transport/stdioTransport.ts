/**
 * Our stdio client transport (POSIX). Unlike the SDK's it
 * - starts the server in its own process group, with a marker variable, and
 *   reaps group, marked processes and recorded tree when the server exits on
 *   its own (a crash), as well as on close (restart, remove, quit): see
 *   processGroup.ts;
 * - limits each message, not the read buffer: a message over
 *   `maxMessageBytes` fails the request it answers (a JSON-RPC error for its
 *   id) and the connection stays up. The SDK's ReadBuffer instead throws at
 *   10 MiB and closes the transport;
 * - reads the server's stdout for at most a few ms per event-loop turn
 *   (readBudget.ts), so a flooding server cannot starve the others;
 * - runs the server one step below the core's CPU priority. `serve` is what
 *   every client talks to: while thirty servers load their modules at start
 *   it must still answer a `tools/list` from the cached catalog at once. A
 *   lower priority costs a server nothing on an idle core (it only loses to
 *   normal-priority work when the CPU is contended), and children of children
 *   inherit it (an `npx` server's real process too).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { setPriority } from 'node:os';
import { PassThrough } from 'node:stream';
import {
  deserializeMessage,
  serializeMessage,
  type JSONRPCMessage,
  type Transport,
} from '@modelcontextprotocol/client';
import { readWithBudget } from './readBudget.js';
import { MessageLines, oversizeResponseId, type OversizeLine } from './messageLines.js';
import { ownerEnv } from '../process/instanceOwner.js';
import { INSTANCE_MARKER, reapBackend, type BackendProcesses } from '../process/processGroup.js';
import { processTree } from '../process/processTree.js';
import { ErrorCode } from '../../../../shared/errors.js';

/** How to start the server. */
export interface StdioServerSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Largest message accepted from the server, in bytes. */
  maxMessageBytes: number;
  /** Backend ID, for messages and the marker. */
  backendId: string;
  /** Looks at each line's first bytes before it is decoded; true skips it (connection/notificationLimits.ts). */
  skipLine?: (head: Buffer, bytes: number) => boolean;
  /** A line that is not JSON-RPC, skipped (stdoutJunk.ts counts and reports them). */
  onJunk?: (line: string) => void;
}

/**
 * The nice value of backend servers (POSIX; Windows maps it to "below normal").
 * At 10 a normal-priority process gets about nine times a niced one's CPU share
 * when both want the core (the Linux scheduler's weights: 1024 against 110).
 */
const BACKEND_NICE = 10;

/** Lowers the CPU priority of a just-spawned server; a failure (a process already gone) is ignored. */
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, BACKEND_NICE);
  } catch {
    // ESRCH (exited at once) or EACCES (not ours): it runs at the default priority, nothing else changes.
  }
}

/** Where the tree is re-recorded while alive where /proc cannot find marked processes. */
const RECORD_INTERVAL_MS = 10_000;
const CLOSE_GRACE_MS = 2000;

const keyOf = (id: string | number): string => JSON.stringify(id);

/** How the SDK names its `server/discover` era probe's requests. */
const PROBE_ID_PREFIX = 'server-discover-probe-';

/** A stdio transport that owns its server's whole process tree. */
export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr (attach before start to miss nothing). */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private processes: BackendProcesses | undefined;
  private readonly marker: string;
  private readonly lines: MessageLines;
  /** Requests sent and not answered yet, by id: an oversize answer fails one of them. */
  private readonly outstanding = new Map<string, string | number>();
  private recorder: NodeJS.Timeout | undefined;
  private reaping: Promise<void> | undefined;
  private closed = false;
  /** The server answered the SDK's era probe (its request ids read `server-discover-probe-<n>`). */
  probeAnswered = false;

  constructor(private readonly spec: StdioServerSpec) {
    this.marker = `${spec.backendId}:${randomUUID()}`;
    this.lines = new MessageLines(
      spec.maxMessageBytes,
      (line) => this.receive(line),
      (line) => this.oversize(line),
      spec.skipLine,
    );
  }

  /** The server's PID once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('GroupStdioTransport already started');
    const child = spawn(this.spec.command, this.spec.args, {
      env: { ...this.spec.env, ...ownerEnv(), [INSTANCE_MARKER]: this.marker },
      ...(this.spec.cwd === undefined ? {} : { cwd: this.spec.cwd }),
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group (setsid): the group is signalled as one on reaping.
      detached: true,
      shell: false,
    });
    this.child = child;
    // Before it has forked anything: its whole tree inherits the lower priority.
    lowerPriority(child.pid);
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('spawn', () => {
        child.off('error', reject);
        resolve();
      });
    });
    this.processes = { pid: child.pid as number, ownGroup: true, marker: this.marker, recorded: [] };
    child.on('error', (error) => this.onerror?.(error));
    child.stdin?.on('error', (error) => this.onerror?.(error));
    // At most READ_BUDGET_MS of each event-loop turn on this server's output: a flood never starves the others.
    if (child.stdout) readWithBudget(child.stdout, (chunk) => this.lines.push(chunk));
    child.stdout?.on('error', (error) => this.onerror?.(error));
    child.stderr?.pipe(this.stderr);
    child.once('exit', () => {
      // Exited on its own (a crash): its children are orphans now; reap them.
      if (!this.closed) void this.reap();
    });
    child.once('close', () => {
      this.stopRecording();
      this.lines.clear();
      if (!this.closed) {
        this.closed = true;
        this.onclose?.();
      }
    });
    if (process.platform !== 'linux') {
      this.recorder = setInterval(() => void this.record(), RECORD_INTERVAL_MS);
      this.recorder.unref();
    }
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || this.closed) throw new Error('Not connected');
    if ('method' in message && 'id' in message) this.outstanding.set(keyOf(message.id), message.id);
    if (stdin.write(serializeMessage(message))) return;
    await new Promise<void>((resolve) => stdin.once('drain', resolve));
  }

  /** Ends stdin, gives the server a moment to exit, then reaps group and tree. */
  async close(): Promise<void> {
    const child = this.child;
    const wasClosed = this.closed;
    this.closed = true;
    this.stopRecording();
    if (child) {
      // Listed before anything dies: orphans are re-parented and lost to the tree walk.
      await this.record();
      // Never started (spawn failed, e.g. ENOENT): there is nothing to wait for.
      const exited = child.pid === undefined || child.exitCode !== null || child.signalCode !== null;
      if (!exited) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.stdin?.end();
        await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
      }
      await this.reap();
    }
    this.lines.clear();
    if (!wasClosed) this.onclose?.();
  }

  private async record(): Promise<void> {
    if (!this.processes) return;
    const tree = await processTree(this.processes.pid);
    if (tree.length > 0) this.processes.recorded = [...new Set([...this.processes.recorded, ...tree])];
  }

  private stopRecording(): void {
    if (this.recorder) clearInterval(this.recorder);
    this.recorder = undefined;
  }

  private reap(): Promise<void> {
    const processes = this.processes;
    if (!processes) return Promise.resolve();
    this.reaping ??= reapBackend(processes).finally(() => (this.reaping = undefined));
    return this.reaping;
  }

  private receive(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch (error) {
      // Not JSON-RPC (a library logging to stdout): skipped, as the SDK does, and reported.
      this.spec.onJunk?.(line);
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if ('id' in message && !('method' in message)) {
      this.outstanding.delete(keyOf(message.id as string | number));
      if (String(message.id).startsWith(PROBE_ID_PREFIX)) this.probeAnswered = true;
      // The SDK runs notification handlers a microtask later but answers a response at once,
      // dropping its request's progress handler: a progress notification read in the same chunk
      // just before the response would be lost (SDK issue 2580). The response waits for them.
      setImmediate(() => this.onmessage?.(message));
      return;
    }
    this.onmessage?.(message);
  }

  /**
   * A message over the limit. If it answers a request we sent (its id shows at
   * one end, or only one request is outstanding), that request gets an error.
   */
  private oversize(line: OversizeLine): void {
    const { maxMessageBytes, backendId } = this.spec;
    const problem = `backend "${backendId}" sent a message of ${line.bytes} bytes, over maxMessageBytes (${maxMessageBytes})`;
    this.onerror?.(new Error(problem));
    const named = oversizeResponseId(line);
    const only = this.outstanding.size === 1 ? [...this.outstanding.values()][0] : undefined;
    const id = named !== undefined && this.outstanding.has(keyOf(named)) ? named : only;
    if (id === undefined) return;
    this.outstanding.delete(keyOf(id));
    this.onmessage?.({
      jsonrpc: '2.0',
      id,
      error: {
        code: -32603,
        message: `${problem}; this request failed, the connection stays up`,
        data: { code: ErrorCode.MessageTooLarge, bytes: line.bytes, limit: maxMessageBytes },
      },
    });
  }
}
