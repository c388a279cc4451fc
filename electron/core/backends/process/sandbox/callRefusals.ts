/**
 * A failed tool call told what its sandbox refused while it ran: the answer
 * the client gets starts with the sentence ("blocked by the sandbox: read of
 * ~/.aws/credentials", shared/model/sandboxBlock.ts), then carries the
 * server's own error as it was, and holds the refusals under a symbol (never
 * serialized) for the Request log (routeAudit.ts: outcome `sandbox_blocked`)
 * and the Try-it panel. Only a sandboxed server's failed calls come here: a
 * call that succeeds, or a server without a sandbox, costs nothing.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { SandboxBlock } from '../../../../../shared/model/health.js';
import { blockSentence } from '../../../../../shared/model/sandboxBlock.js';

/** Where a result keeps the refusals of its call (an own, enumerable symbol: spreads keep it, JSON drops it). */
export const CALL_REFUSALS: unique symbol = Symbol('sandbox refusals of the call');

/** What a call's result says of its refusals. */
export interface CallRefusals {
  /** The server that was refused. */
  server: string;
  /** The home it was given (its paths are said as `~/...`). */
  home?: string;
  blocked: SandboxBlock[];
  /** Their sentences, in order. */
  sentences: string[];
}

/** `result` with its refusals said first, and kept for the log. */
export function withRefusals(
  result: CallToolResult,
  blocked: SandboxBlock[],
  server: string,
  home: string | undefined,
): CallToolResult {
  const sentences = blocked.map((block) => blockSentence(block, home));
  const content = Array.isArray(result.content) ? result.content : [];
  const said: CallRefusals = { server, ...(home ? { home } : {}), blocked, sentences };
  return {
    ...result,
    content: [{ type: 'text', text: `${sentences.join('\n')}\n` }, ...content],
    [CALL_REFUSALS]: said,
  } as CallToolResult;
}

/** The refusals a result was told of (undefined for any other result). */
export function refusalsOf(result: unknown): CallRefusals | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  return (result as { [CALL_REFUSALS]?: CallRefusals })[CALL_REFUSALS];
}
