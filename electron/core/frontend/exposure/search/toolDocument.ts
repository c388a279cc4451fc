/**
 * What of a tool is searchable, field by field. Field boosts say where a
 * match counts most: the tool's own name and title above its server, its
 * description above its parameters, annotation hints least.
 */
import type { Tool } from '@modelcontextprotocol/server';

/** One tool as the index holds it. */
export interface ToolDocument {
  /** The catalog's exposed name (the index's id). */
  id: string;
  name: string;
  original: string;
  server: string;
  title: string;
  description: string;
  params: string;
  hints: string;
}

/** Indexed fields and their boosts. */
export const FIELD_BOOSTS: Record<Exclude<keyof ToolDocument, 'id'>, number> = {
  name: 2,
  original: 3,
  title: 2,
  server: 1.5,
  description: 1,
  params: 0.6,
  hints: 0.3,
};

/** Parameter names and descriptions, one level of nesting deep (what a model reads to fill them in). */
function parameterText(schema: unknown, depth = 0): string {
  if (typeof schema !== 'object' || schema === null || depth > 1) return '';
  const properties = (schema as { properties?: Record<string, unknown> }).properties;
  if (typeof properties !== 'object' || properties === null) return '';
  const parts: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    parts.push(name);
    const description = (property as { description?: unknown } | null)?.description;
    if (typeof description === 'string') parts.push(description);
    parts.push(parameterText(property, depth + 1));
    const items = (property as { items?: unknown } | null)?.items;
    if (items) parts.push(parameterText(items, depth + 1));
  }
  return parts.filter(Boolean).join(' ');
}

/** Annotation hints as words ("read only", "destructive", ...). */
function hintText(tool: Tool): string {
  const hints = tool.annotations ?? {};
  const words: string[] = [];
  if (hints.readOnlyHint) words.push('read only');
  if (hints.destructiveHint) words.push('destructive delete');
  if (hints.idempotentHint) words.push('idempotent');
  if (hints.openWorldHint) words.push('open world internet');
  return words.join(' ');
}

/** The searchable document of one catalog tool. */
export function toolDocument(
  tool: Tool,
  origin: { backendId: string; original: string },
  serverTitle?: string,
): ToolDocument {
  return {
    id: tool.name,
    name: tool.name,
    original: origin.original,
    server: serverTitle ? `${origin.backendId} ${serverTitle}` : origin.backendId,
    title: tool.title ?? tool.annotations?.title ?? '',
    description: tool.description ?? '',
    params: parameterText(tool.inputSchema),
    hints: hintText(tool),
  };
}
