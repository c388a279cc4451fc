/**
 * The endpoint's SEP-2243 check of a 2026-07-28 tools/call: the `Mcp-Param-*`
 * headers must agree with the arguments for the tool as this client sees it
 * in its tools/list (exposed name, the catalog's schema). Only listed tools
 * are checked: a client cannot know the headers of a tool it never listed (a
 * tool found by search in the search modes), and the SDK client sends none
 * for it, so checking those would refuse every such call.
 */
import type { IncomingMessage } from 'node:http';
import type { Tool } from '@modelcontextprotocol/server';
import {
  paramHeaderMismatch,
  paramHeadersOf,
  type ParamHeader,
  type ParamHeaderMismatch,
} from '../../backends/transport/paramHeaders.js';

/** Tool name -> its parameter headers, for the tools of one list that have any. */
type HeaderedTools = ReadonlyMap<string, readonly ParamHeader[]>;

/** Checks tools/call requests against the caller's tool list. */
export class ParamHeaderCheck {
  /** Per tools/list array (the exposure caches them per client view): its tools with parameter headers. */
  private readonly byList = new WeakMap<readonly Tool[], HeaderedTools>();

  /** `tools(client)` is the client's current tools/list. */
  constructor(private readonly tools: (client: string) => readonly Tool[]) {}

  /** The header/body disagreement of a tools/call `params` from `client`, if there is one. */
  mismatch(client: string, params: unknown, req: IncomingMessage): ParamHeaderMismatch | undefined {
    if (params === null || typeof params !== 'object') return undefined;
    const { name, arguments: args } = params as { name?: unknown; arguments?: unknown };
    if (typeof name !== 'string') return undefined;
    const declared = this.headered(this.tools(client)).get(name);
    if (declared === undefined) return undefined;
    return paramHeaderMismatch(declared, args, (header) => firstValue(req.headers[header]));
  }

  private headered(list: readonly Tool[]): HeaderedTools {
    let headered = this.byList.get(list);
    if (!headered) {
      const map = new Map<string, readonly ParamHeader[]>();
      for (const tool of list) {
        const params = paramHeadersOf(tool.inputSchema);
        if (params.length > 0) map.set(tool.name, params);
      }
      headered = map;
      this.byList.set(list, headered);
    }
    return headered;
  }
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
