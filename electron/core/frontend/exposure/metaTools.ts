/**
 * The two tools a client in search mode lists instead of the catalog:
 * `search_tools` finds tools by what they do, `call_tool` calls one by the
 * name search returned. Their descriptions tell the model how to use them.
 */
import type { Tool } from '@modelcontextprotocol/server';

/** Name of the search meta-tool. */
export const SEARCH_TOOL = 'search_tools';
/** Name of the call meta-tool. */
export const CALL_TOOL = 'call_tool';
/** Results when `limit` is not given. */
export const DEFAULT_LIMIT = 8;
/** The most results one search returns. */
export const MAX_LIMIT = 50;
/** `_meta` key Claude Code reads to load a tool even when its own tool search defers the rest. */
export const ALWAYS_LOAD_META = 'anthropic/alwaysLoad';

const foundTool = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'The name to pass to call_tool.' },
    server: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string' },
    inputSchema: { type: 'object' },
    annotations: { type: 'object' },
  },
  required: ['name', 'server', 'description', 'inputSchema'],
};

/** `search_tools`. */
export const searchToolDefinition: Tool = {
  name: SEARCH_TOOL,
  title: 'Search tools',
  description:
    'Find tools for a task among all connected MCP servers. Describe what you need to do in plain words ' +
    '(a whole task is fine); returns the best matching tools with their input schemas, best first. ' +
    'Then run one with call_tool, passing its name and arguments that follow its inputSchema.',
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What you want to do, e.g. "create a GitHub issue".' },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_LIMIT,
        default: DEFAULT_LIMIT,
        description: 'How many tools to return.',
      },
    },
    required: ['query'],
  },
  outputSchema: {
    type: 'object',
    properties: { tools: { type: 'array', items: foundTool } },
    required: ['tools'],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/** `call_tool`. */
export const callToolDefinition: Tool = {
  name: CALL_TOOL,
  title: 'Call a tool',
  description:
    'Call a tool found with search_tools: pass its name exactly as search_tools returned it and ' +
    "arguments matching its inputSchema. Returns that tool's result unchanged.",
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The tool name from search_tools.' },
      arguments: { type: 'object', description: "The tool's arguments, per its inputSchema." },
    },
    required: ['name'],
  },
};
