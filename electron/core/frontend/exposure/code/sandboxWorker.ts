/**
 * Code mode's worker thread: runs programs in the WebAssembly engine
 * (sandboxRunner.ts) off the proxy's event loop, so a program computing for
 * its whole CPU budget holds up no other client. One run at a time; each of
 * the program's tool calls goes back to the main thread as a message (where
 * it takes the direct call's path) and its value comes back the same way.
 * The engine is loaded before the worker says it is ready, so a run's start
 * pays no compile. Wall time and cancellation are the main thread's
 * (sandboxPool.ts ends this worker for them), and so is a CPU stop the
 * engine's interrupt missed: this side writes its CPU use to a shared meter.
 * Built as an entry of its own beside the bundle that starts it.
 */
import { parentPort } from 'node:worker_threads';
import { loadEngine, runProgram, type RunOutcome, type SandboxLimits, type ToolNamespaces } from './sandboxRunner.js';

/** The main thread's messages. */
export type ToWorker =
  | {
      kind: 'run';
      source: string;
      namespaces: ToolNamespaces;
      limits: SandboxLimits;
      meter: SharedArrayBuffer;
    }
  | { kind: 'reply'; id: number; ok: true; value: unknown }
  | { kind: 'reply'; id: number; ok: false; message: string };

/** This worker's messages. */
export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'call'; id: number; name: string; args: Record<string, unknown> | undefined }
  | { kind: 'log'; line: string }
  | { kind: 'done'; outcome: RunOutcome };

const port = parentPort;
if (port) {
  const post = (message: FromWorker) => port.postMessage(message);
  const replies = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 0;
  port.on('message', (message: ToWorker) => {
    if (message.kind === 'reply') {
      const waiting = replies.get(message.id);
      replies.delete(message.id);
      if (message.ok) waiting?.resolve(message.value);
      else waiting?.reject(new Error(message.message));
      return;
    }
    const { source, namespaces, limits } = message;
    void runProgram(
      source,
      namespaces,
      (name, args) =>
        new Promise((resolve, reject) => {
          const id = next++;
          replies.set(id, { resolve, reject });
          post({ kind: 'call', id, name, args });
        }),
      limits,
      undefined,
      { meter: new Float64Array(message.meter), log: (line) => post({ kind: 'log', line }) },
    )
      .catch((error: unknown): RunOutcome => {
        const message = `the sandbox failed: ${(error as Error).message ?? String(error)}`;
        return { ok: false, reason: 'error', message, logs: [], calls: 0, peakInFlight: 0 };
      })
      .then((outcome) => {
        replies.clear();
        post({ kind: 'done', outcome });
      });
  });
  void loadEngine().then(() => post({ kind: 'ready' }));
}
