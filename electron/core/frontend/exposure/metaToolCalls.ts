/**
 * The tools/call side of search mode. `search_tools` (compact entries unless
 * `detail: "full"`) and `describe_tools` are answered here; `call_tool` is
 * checked against the named tool's input schema (callArguments.ts) and unwrapped into the direct tools/call it stands for, which
 * then takes the router's one path (policy, approvals, pinning, audit,
 * progress, cancellation, input requests, queue and timeout). Only clients in
 * search mode have these tools: for others the names are unknown like any other.
 * Under `search+load` a search also adds what it found to the session's own
 * tools/list and tells the client, which then calls those tools natively.
 * For a client that declares the skills extension, a search also returns the
 * best matching skills (a few, after the tools), which it reads with skills/get.
 */
import type { CallToolRequestParams, CallToolResult } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { LoadedTools } from './loadedTools.js';
import { compactLine, compactTool, purposeOf } from './compactTool.js';
import { CALL_TOOL, DEFAULT_LIMIT, DESCRIBE_TOOL, MAX_LIMIT, SEARCH_TOOL } from './metaTools.js';
import type { FoundSkill, ToolExposure } from './toolExposure.js';
import { RUN_CODE_TOOL } from './code/codeRun.js';

/** The session a search runs in, for `search+load`. */
export interface SearchSession {
  /** The tools its searches loaded. */
  loaded: LoadedTools;
  /** Whether its client re-lists when told (a 2025-era session; a 2026-07-28 client only while it listens). */
  relists(): boolean;
  /** Tells its client that its tools/list changed. */
  listChanged(): void;
}

/** At most this many skills come with a search's tools. */
export const MAX_SKILLS = 3;

function invalid(message: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message);
}

/** `search_tools`: the client's best matches, as structured content and as text. */
export function searchTools(
  exposure: Pick<ToolExposure, 'search' | 'searchSkills' | 'mode' | 'load'>,
  client: string,
  args: Record<string, unknown> = {},
  session?: SearchSession,
  withSkills = false,
): CallToolResult {
  const { query, limit = DEFAULT_LIMIT, detail = 'compact' } = args;
  if (typeof query !== 'string' || query.trim() === '') {
    throw invalid(`${SEARCH_TOOL}: "query" must be a non-empty string`);
  }
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw invalid(`${SEARCH_TOOL}: "limit" must be an integer from 1 to ${MAX_LIMIT}`);
  }
  if (detail !== 'compact' && detail !== 'full') throw invalid(`${SEARCH_TOOL}: "detail" must be "compact" or "full"`);
  const tools = exposure.search(client, query, limit);
  const skills = withSkills ? exposure.searchSkills(client, query, Math.min(limit, MAX_SKILLS)) : [];
  const skillText = skills.length === 0 ? '' : `\n${skillLines(skills)}`;
  const withFound = <T extends object>(structured: T): T | (T & { skills: FoundSkill[] }) =>
    skills.length === 0 ? structured : { ...structured, skills };
  const loads = session !== undefined && exposure.mode(client) === 'search+load' && session.relists();
  if (loads && exposure.load(client, session.loaded, tools)) session.listChanged();
  const how = loads
    ? `call one directly (they are in your tools list now) or with ${CALL_TOOL}`
    : `call one with ${CALL_TOOL}`;
  if (tools.length === 0) {
    return {
      content: [{ type: 'text', text: `No tools match "${query}". Try other words.${skillText}` }],
      structuredContent: withFound({ tools }),
    };
  }
  if (detail === 'full') {
    const text = `${tools.length} tools, best first; ${how}:\n${JSON.stringify(tools)}${skillText}`;
    return { content: [{ type: 'text', text }], structuredContent: withFound({ tools }) };
  }
  const compact = tools.map(compactTool);
  const text =
    `${tools.length} tools, best first; ${how} (${DESCRIBE_TOOL} gives full schemas):\n` +
    compact.map(compactLine).join('\n') +
    skillText;
  return { content: [{ type: 'text', text }], structuredContent: withFound({ tools: compact }) };
}

/** Found skills as text: a heading saying how to read them, then one line each. */
function skillLines(skills: readonly FoundSkill[]): string {
  const lines = skills.map(
    (skill) => `- ${skill.name} (${skill.server}, ${skill.uri}): ${purposeOf(skill.description)}`,
  );
  return `${skills.length} skills, best first; read one with skills/get by its URI:\n${lines.join('\n')}`;
}

/** `describe_tools`: the named tools' full descriptions and input schemas, and the names that match none. */
export function describeTools(
  exposure: Pick<ToolExposure, 'describe'>,
  client: string,
  args: Record<string, unknown> = {},
): CallToolResult {
  const { names } = args;
  if (
    !Array.isArray(names) ||
    names.length === 0 ||
    names.length > MAX_LIMIT ||
    !names.every((name): name is string => typeof name === 'string')
  ) {
    throw invalid(`${DESCRIBE_TOOL}: "names" must be 1 to ${MAX_LIMIT} tool names from ${SEARCH_TOOL}`);
  }
  const tools = exposure.describe(client, names);
  const described = new Set(tools.map((tool) => tool.name));
  const unknown = names.filter((name) => !described.has(name));
  const text =
    JSON.stringify(tools) + (unknown.length > 0 ? `\nNo tool you may use is named: ${unknown.join(', ')}` : '');
  return {
    content: [{ type: 'text', text }],
    structuredContent: unknown.length > 0 ? { tools, unknown } : { tools },
  };
}

/**
 * The direct call a `call_tool` call stands for: the named tool with its
 * arguments, keeping everything else of the request (`_meta` with its
 * progress token, a 2026-07-28 retry's `inputResponses` and `requestState`).
 */
export function unwrapCall(params: CallToolRequestParams): CallToolRequestParams {
  const { name, arguments: args } = (params.arguments ?? {}) as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string' || name === '')
    throw invalid(`${CALL_TOOL}: "name" must be a tool name from ${SEARCH_TOOL}`);
  if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
    throw invalid(`${CALL_TOOL}: "arguments" must be an object`);
  }
  const inner: CallToolRequestParams = { ...params, name };
  if (args === undefined) delete inner.arguments;
  else inner.arguments = args as Record<string, unknown>;
  return inner;
}

/** Which meta-tool a call names, for a client in search or code mode. */
export function metaToolOf(
  exposure: Pick<ToolExposure, 'mode' | 'runsCode'>,
  client: string,
  name: string,
): 'search' | 'call' | 'describe' | 'code' | undefined {
  if (name !== SEARCH_TOOL && name !== CALL_TOOL && name !== DESCRIBE_TOOL && name !== RUN_CODE_TOOL) return undefined;
  if (exposure.mode(client) === 'all') return undefined;
  if (name === RUN_CODE_TOOL) return exposure.runsCode(client) ? 'code' : undefined;
  return name === SEARCH_TOOL ? 'search' : name === CALL_TOOL ? 'call' : 'describe';
}
