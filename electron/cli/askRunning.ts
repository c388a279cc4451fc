/**
 * Asking the running Switchboard one contract method over its UI bridge, for
 * commands whose state is the running instance's (review, connections): the
 * result, or undefined once the reason it failed (none running, the method's
 * error) was printed on stderr.
 */
import type { MethodName, ParamsOf, ResultOf } from '../../shared/contract.js';
import { errorLine, type Write } from './io.js';
import type { RunningCall } from './runningBridge.js';

/** What such a command needs from the CLI. */
export interface RunningCommandContext {
  out: Write;
  err: Write;
  call<M extends MethodName>(method: M, params?: ParamsOf<M>): Promise<RunningCall<ResultOf<M>>>;
}

/** The result of a call, or undefined once the reason it failed was printed. */
export async function askRunning<M extends MethodName>(
  context: RunningCommandContext,
  method: M,
  params?: ParamsOf<M>,
  /** The call already made (its outcome read first by the caller). */
  made?: RunningCall<ResultOf<M>>,
): Promise<ResultOf<M> | undefined> {
  const call = made ?? (await context.call(method, params));
  if (!call.reached) {
    context.err(`mcp-switchboard: ${call.reason}\n`);
    return undefined;
  }
  if (!call.outcome.ok) {
    context.err(`mcp-switchboard: ${errorLine(call.outcome.error)}\n`);
    return undefined;
  }
  return call.outcome.result;
}
