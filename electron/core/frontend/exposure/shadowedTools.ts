/**
 * A backend tool exposed as `search_tools` or `call_tool` (a backend with an
 * empty prefix) meets the meta-tool of that name in a search-mode list. The
 * meta-tool keeps the name there and for direct calls (the client could not
 * search otherwise); the backend tool stays reachable: search finds it, and
 * `call_tool` with its name calls it (MCP 2025-11-25, tools: names are unique
 * within a server's list). This says so in the log, once per client and tool.
 */
import type { Tool } from '@modelcontextprotocol/server';
import type { Logger } from '../../platform/deps.js';
import { CALL_TOOL } from './metaTools.js';

const told = new Set<string>();
const MAX_TOLD = 10_000;

/** Logs each backend tool a meta-tool shadows for `client`, the first time it is seen. */
export function logShadowedTools(logger: Logger, client: string, shadowed: readonly Tool[]): void {
  for (const tool of shadowed) {
    const key = `${client}\n${tool.name}`;
    if (told.has(key)) continue;
    if (told.size >= MAX_TOLD) told.clear();
    told.add(key);
    logger.warn(
      `search mode: client "${client}" lists the meta-tool "${tool.name}", not the backend tool of that name; ` +
        `search_tools finds the backend tool and ${CALL_TOOL} {"name": "${tool.name}"} calls it ` +
        `(give its backend a prefix to list it under another name)`,
    );
  }
}
