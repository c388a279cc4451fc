/**
 * Where a 2026-07-28 backend's `CreateTaskResult` gets past the SDK client.
 * The io.modelcontextprotocol/tasks extension lets a server answer a
 * tools/call with `resultType: "task"`, but SDK v2 2.4.0's 2026 codec decodes
 * any resultType other than complete/input_required as UnsupportedResultType
 * (client decodeResult), before any hook of ours runs; the codec and the
 * response funnel are private. The transport's `onmessage` is the one public
 * seam in front of it: a task answer is handed on as a `complete` result that
 * carries the task under our `_meta` key, and `liftedTask` takes it out again.
 */
import type { Transport } from '@modelcontextprotocol/client';

/** Our `_meta` key carrying a backend's flat CreateTaskResult through the SDK. */
export const LIFTED_TASK_META_KEY = 'io.github.mcp-switchboard/task';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Wraps a connected transport's delivery so task answers reach the client as complete results. */
export function liftTaskResults(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    const result = (message as { result?: unknown }).result;
    if (!isObject(result) || result['resultType'] !== 'task') return deliver(message, extra);
    const carried = { resultType: 'complete', content: [], _meta: { [LIFTED_TASK_META_KEY]: result } };
    return deliver({ ...message, result: carried } as typeof message, extra);
  };
}

/** The backend's CreateTaskResult a lifted answer carries, if it is one. */
export function liftedTask(result: unknown): Record<string, unknown> | undefined {
  const meta = isObject(result) ? result['_meta'] : undefined;
  const task = isObject(meta) ? meta[LIFTED_TASK_META_KEY] : undefined;
  return isObject(task) ? task : undefined;
}
