/**
 * What an exposed tool is made from, and the definition the model sees once
 * an override is applied: a server's own tool (name, title, description,
 * annotations, arguments changed), or a prompt or resource offered as a tool
 * for clients that only do tools. One function for the merged catalog and a
 * profile's view, so both show exactly what a call will do.
 */
import type { Prompt, Resource, Tool } from '@modelcontextprotocol/client';
import type { ItemAsTool, ToolOverride } from '../../platform/config/overridesConfig.js';
import { overriddenSchema } from './argumentSchema.js';

/** What an exposed tool comes from. */
export type ToolSource =
  { via: 'tool'; tool: Tool } | { via: 'prompt'; prompt: Prompt } | { via: 'resource'; resource: Resource };

/** How a tool's source is kept under the ORIGINAL key of its override section. */
export type ToolVia = ToolSource['via'];

/** The override of any source: a tool's, or a prompt's or resource's offered as a tool. */
export type AnyToolOverride = ToolOverride | ItemAsTool;

/** The original name (tools, prompts) or URI (resources) a source is keyed by. */
export function sourceKey(source: ToolSource): string {
  if (source.via === 'tool') return source.tool.name;
  if (source.via === 'prompt') return source.prompt.name;
  return source.resource.uri;
}

/** The tool definition the model sees, under `name` (already prefixed and sanitised). */
export function exposedTool(source: ToolSource, override: AnyToolOverride | undefined, name: string): Tool {
  if (source.via === 'prompt') return promptTool(source.prompt, override ?? {}, name);
  if (source.via === 'resource') return resourceTool(source.resource, override ?? {}, name);
  const { tool } = source;
  if (!override) return { ...tool, name };
  const out: Tool = { ...tool, name };
  if (override.title !== undefined) out.title = override.title;
  if (override.description !== undefined) out.description = override.description;
  const own = 'annotations' in override ? override.annotations : undefined;
  if (own) out.annotations = { ...tool.annotations, ...own };
  const args = 'arguments' in override ? override.arguments : undefined;
  if (args) out.inputSchema = overriddenSchema(tool.inputSchema, args);
  return out;
}

/** A prompt as a tool: its arguments become string parameters; the call runs prompts/get. */
function promptTool(prompt: Prompt, override: ItemAsTool, name: string): Tool {
  const properties: Record<string, { type: string; description?: string }> = {};
  for (const argument of prompt.arguments ?? []) {
    properties[argument.name] = {
      type: 'string',
      ...(argument.description !== undefined ? { description: argument.description } : {}),
    };
  }
  const required = (prompt.arguments ?? []).filter((argument) => argument.required).map((argument) => argument.name);
  return {
    name,
    ...titleOf(override.title ?? prompt.title),
    description: override.description ?? prompt.description ?? `The prompt "${prompt.name}", as text.`,
    inputSchema: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
    annotations: { readOnlyHint: true },
  };
}

/** A resource as a tool without arguments; the call runs resources/read. */
function resourceTool(resource: Resource, override: ItemAsTool, name: string): Tool {
  return {
    name,
    ...titleOf(override.title ?? resource.title),
    description: override.description ?? resource.description ?? `Reads ${resource.name} (${resource.uri}).`,
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  };
}

function titleOf(title: string | undefined): { title?: string } {
  return title === undefined ? {} : { title };
}
