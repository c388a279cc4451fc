/**
 * A remote backend Switchboard runs itself: a registry package whose
 * transport is streamable-http or sse (server.json `transport.url`, e.g.
 * `http://localhost:{port}/mcp`). Starting spawns the package's command in
 * its own process group (as stdio servers are, processGroup.ts), waits until
 * the URL's port accepts connections, then opens the HTTP transport; closing
 * closes that and reaps the process tree. The server exiting closes the
 * transport, so the supervisor reconnects (and starts it again) as for a
 * crashed stdio server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import type { JSONRPCMessage, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { commandNotFound, searchPath } from '../process/commandLookup.js';
import { ownerEnv } from '../process/instanceOwner.js';
import { INSTANCE_MARKER, reapBackend, type BackendProcesses } from '../process/processGroup.js';

/** How to start the server and where it listens. */
export interface LaunchedServerSpec {
  command: string;
  args: string[];
  /** The whole environment of the child (resolved: no references left). */
  env: Record<string, string>;
  cwd?: string;
  backendId: string;
  url: URL;
  /** Longest wait for the port to accept connections (default 60 s; the supervisor's connect timeout may end it sooner). */
  readyTimeoutMs?: number;
}

const POLL_MS = 100;

/** Whether something accepts TCP connections on `url`'s host and port now. */
function portOpen(url: URL): Promise<boolean> {
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(1000, () => done(false));
  });
}

/** The HTTP transport of a server started by it (see the module comment). */
export class LaunchedHttpTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private child: ChildProcess | undefined;
  private processes: BackendProcesses | undefined;
  private inner: Transport | undefined;
  private closed = false;
  private exited: string | undefined;

  /** `open` makes the HTTP transport once the server listens; `output` gets its stdout and stderr. */
  constructor(
    private readonly spec: LaunchedServerSpec,
    private readonly open: () => Transport,
    private readonly output: (chunk: string) => void,
  ) {}

  /** The server's PID once started. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  get sessionId(): string | undefined {
    return this.inner?.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.inner?.setProtocolVersion?.(version);
  }

  async start(): Promise<void> {
    if (this.child) throw new Error('LaunchedHttpTransport already started');
    const { spec } = this;
    const marker = `${spec.backendId}:${randomUUID()}`;
    const child = spawn(spec.command, spec.args, {
      env: { ...spec.env, ...ownerEnv(), [INSTANCE_MARKER]: marker },
      ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, reaped as one
      shell: false,
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'ENOENT' ? new Error(commandNotFound(spec.command, searchPath(spec.env, spec.env))) : error,
        ),
      );
      child.once('spawn', () => resolve());
    });
    this.processes = { pid: child.pid as number, ownGroup: true, marker, recorded: [] };
    child.stdout?.on('data', (chunk: Buffer) => this.output(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => this.output(chunk.toString()));
    child.once('exit', (code, signal) => {
      this.exited = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      // Exited on its own: reap what it left and tell the supervisor (it reconnects, starting it again).
      if (!this.closed) void this.close();
    });
    await this.waitForPort();
    const inner = this.open();
    inner.onmessage = (message, extra) => this.onmessage?.(message, extra);
    inner.onerror = (error) => this.onerror?.(error);
    inner.onclose = () => void this.close();
    this.inner = inner;
    await inner.start();
  }

  private async waitForPort(): Promise<void> {
    const { url, backendId } = this.spec;
    const deadline = Date.now() + (this.spec.readyTimeoutMs ?? 60_000);
    while (!(await portOpen(url))) {
      if (this.exited) throw new Error(`${backendId}: the server ${this.exited} before it served ${url.href}`);
      if (this.closed) throw new Error(`${backendId}: closed while waiting for ${url.href}`);
      if (Date.now() > deadline) {
        await this.close();
        throw new Error(`${backendId}: the server started but nothing listens on ${url.host}`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (!this.inner || this.closed) throw new Error('Not connected');
    return this.inner.send(message, options);
  }

  /** Closes the HTTP transport, then stops the server and everything it started. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const inner = this.inner;
    this.inner = undefined;
    if (inner) {
      inner.onclose = undefined;
      await inner.close().catch(() => undefined);
    }
    if (this.processes) await reapBackend(this.processes);
    this.onclose?.();
  }
}
