/**
 * The compact form of a found tool, which `search_tools` returns by default.
 * Input schemas are most of a full answer (five LiveMCPBench results: a median
 * of 1,846 o200k tokens), and a model needs them only for the one or two
 * tools it picks, which `describe_tools` then gives in full. What stays is
 * what a model chooses by: the name, the server, one line of purpose, the
 * argument names with their types and which are required, and whether the
 * tool only reads or may destroy.
 */
import type { FoundTool } from './toolExposure.js';

/** One `search_tools` result in its compact form. */
export interface CompactTool {
  name: string;
  server: string;
  /** The first sentence of the description, at most {@link PURPOSE_MAX} characters. */
  purpose: string;
  /** The arguments, `name: type` each, an optional one marked `?` (`query: string, limit?: integer`). */
  args: string;
  readOnly?: true;
  destructive?: true;
}

/** A purpose is cut to this many characters. */
export const PURPOSE_MAX = 160;

/** The first sentence (or line) of a description, cut at {@link PURPOSE_MAX}. */
export function purposeOf(description: string): string {
  const first = description.trim().split(/(?<=[.!?])\s|(?<=[。！？])|\n/, 1)[0] ?? '';
  const line = first.replace(/\s+/g, ' ').trim();
  return line.length <= PURPOSE_MAX ? line : `${line.slice(0, PURPOSE_MAX - 1).trimEnd()}…`;
}

type Schema = { type?: unknown; enum?: unknown; items?: unknown; anyOf?: unknown; oneOf?: unknown };

/** A property's type in a few characters: `string`, `integer[]`, `"a"|"b"`, `string|null`. */
function typeOf(schema: unknown, depth = 0): string {
  if (typeof schema !== 'object' || schema === null) return 'any';
  const s = schema as Schema;
  if (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.length <= 6) {
    return s.enum.map((v) => JSON.stringify(v)).join('|');
  }
  if (Array.isArray(s.type)) return s.type.map(String).join('|');
  if (s.type === 'array') return depth < 2 ? `${typeOf(s.items, depth + 1)}[]` : 'array';
  if (typeof s.type === 'string') return s.type;
  const variants = Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : undefined;
  if (variants && depth < 2) return [...new Set(variants.map((v) => typeOf(v, depth + 1)))].join('|');
  return 'any';
}

/** The compact form of a found tool. */
export function compactTool(found: FoundTool): CompactTool {
  const schema = found.inputSchema;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const args = Object.entries(schema.properties ?? {})
    .map(([name, property]) => `${name}${required.has(name) ? '' : '?'}: ${typeOf(property)}`)
    .join(', ');
  const compact: CompactTool = { name: found.name, server: found.server, purpose: purposeOf(found.description), args };
  if (found.annotations?.readOnlyHint === true) compact.readOnly = true;
  else if (found.annotations?.destructiveHint === true) compact.destructive = true;
  return compact;
}

/** A compact tool as one line of text: `name (server, read-only): purpose Args: ...`. */
export function compactLine(tool: CompactTool): string {
  const flags = [tool.server, ...(tool.readOnly ? ['read-only'] : []), ...(tool.destructive ? ['destructive'] : [])];
  return `- ${tool.name} (${flags.join(', ')}): ${tool.purpose}${tool.args ? ` Args: ${tool.args}` : ' No arguments.'}`;
}
