/**
 * The tools a client in search mode lists instead of the catalog:
 * `search_tools` finds tools by what they do (compact entries by default),
 * `describe_tools` gives the full input schemas of the few the model picks,
 * `call_tool` calls one by the name search returned. Their descriptions tell
 * the model how to use them.
 */
import type { Tool } from '@modelcontextprotocol/server';

/** Name of the search meta-tool. */
export const SEARCH_TOOL = 'search_tools';
/** Name of the call meta-tool. */
export const CALL_TOOL = 'call_tool';
/** Name of the meta-tool that gives found tools' full schemas. */
export const DESCRIBE_TOOL = 'describe_tools';
/** Results when `limit` is not given. */
export const DEFAULT_LIMIT = 8;
/** The most results one search returns. */
export const MAX_LIMIT = 50;
/** `_meta` key Claude Code reads to load a tool even when its own tool search defers the rest. */
export const ALWAYS_LOAD_META = 'anthropic/alwaysLoad';

/**
 * A found tool in an output schema: its name and server; the rest (compact: purpose, args, readOnly,
 * destructive; full: title, description, inputSchema, annotations) is left open, which keeps the
 * meta-tools' own tools/list small.
 */
const foundTool = {
  type: 'object',
  properties: { name: { type: 'string', description: 'The name to pass to call_tool.' }, server: { type: 'string' } },
  required: ['name', 'server'],
};

/** `search_tools`. */
export const searchToolDefinition: Tool = {
  name: SEARCH_TOOL,
  title: 'Search tools',
  description:
    'Find tools for a task among all connected MCP servers. Describe what you need to do in plain words ' +
    '(a whole task is fine); returns the best matching tools, best first, each with its purpose and ' +
    'arguments ("name: type", "?" when optional). Then run one with call_tool, passing its name and ' +
    'arguments; describe_tools gives the full input schemas when you need them.',
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
      detail: {
        type: 'string',
        enum: ['compact', 'full'],
        default: 'compact',
        description: '"full" returns each tool\'s description and full inputSchema.',
      },
    },
    required: ['query'],
  },
  outputSchema: {
    type: 'object',
    // `skills` (uri, name, server, description): for clients that declare the skills extension.
    properties: { tools: { type: 'array', items: foundTool }, skills: { type: 'array' } },
    required: ['tools'],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

/** `describe_tools`. */
export const describeToolDefinition: Tool = {
  name: DESCRIBE_TOOL,
  title: 'Describe tools',
  description: 'Full descriptions and input schemas of tools found with search_tools, by the names it returned.',
  inputSchema: {
    type: 'object',
    properties: {
      names: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        maxItems: MAX_LIMIT,
      },
    },
    required: ['names'],
  },
  outputSchema: {
    type: 'object',
    properties: {
      tools: { type: 'array', items: foundTool },
      unknown: { type: 'array', items: { type: 'string' } },
    },
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
    "arguments matching its inputSchema. Returns that tool's result unchanged; arguments that do not fit " +
    'its inputSchema are answered with what was wrong and the schema.',
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The tool name from search_tools.' },
      arguments: { type: 'object', description: "The tool's arguments, per its inputSchema." },
    },
    required: ['name'],
  },
};

/** What a search-mode tools/list starts with, in this order. */
export const META_TOOLS: readonly Tool[] = [searchToolDefinition, callToolDefinition, describeToolDefinition];
