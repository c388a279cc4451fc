// A minimal DevTools-protocol client for a child Node started with --inspect=127.0.0.1:0
// (bench/hopProfile.ts uses its Profiler domain to profile only a window of steady load).
import WebSocket from 'ws';

/** One connection to a child's inspector. */
export class Inspector {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: WebSocket.RawData) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
      const waiter = message.id === undefined ? undefined : this.pending.get(message.id);
      if (!waiter || message.id === undefined) return;
      this.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result);
    });
  }

  /** Connects to the inspector URL the child printed on stderr ("Debugger listening on ws://..."). */
  static async attach(stderr: readonly string[]): Promise<Inspector> {
    const url = stderr.map((l) => /Debugger listening on (ws:\/\/\S+)/.exec(l)?.[1]).find(Boolean);
    if (url === undefined) throw new Error('the child printed no inspector URL (started without --inspect?)');
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new Inspector(socket);
  }

  /** Sends one protocol command and resolves with its result. */
  send(method: string, params: object = {}): Promise<unknown> {
    const id = this.nextId++;
    this.socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  close(): void {
    this.socket.close();
  }
}
