/**
 * Code mode's declarations: the functions a program may call, as compact
 * TypeScript generated from the tools' input schemas (a model reads these
 * far more cheaply than JSON Schema, and writes calls against them). Each
 * tool becomes `tools.<namespace>.<fn>(args)`: the namespace is its server,
 * the function its name as the client sees it without the server's prefix.
 */
import type { Tool } from '@modelcontextprotocol/server';

type Schema = Record<string, unknown>;

/** Deepest nesting spelled out; below it a value is `any`. */
const MAX_DEPTH = 4;
/** Longest description kept per tool and per property (first sentence, cut here). */
const TOOL_NOTE = 160;
const PROP_NOTE = 80;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A property key or member name as TypeScript spells it. */
function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** `tools.gh.add` or `tools["my-server"]["do-it"]`: how a program reaches a function. */
export function accessPath(namespace: string, fn: string): string {
  const part = (name: string) => (IDENTIFIER.test(name) ? `.${name}` : `[${JSON.stringify(name)}]`);
  return `tools${part(namespace)}${part(fn)}`;
}

/** The first sentence of a description, cut to `max` characters, safe inside a comment. */
function note(text: unknown, max: number): string {
  if (typeof text !== 'string') return '';
  const first = text.trim().split(/(?<=[.!?])\s|\n/)[0] ?? '';
  const cut = first.length > max ? `${first.slice(0, max - 1)}…` : first;
  return cut.replace(/\*\//g, '* /');
}

/** A JSON Schema as a TypeScript type. */
export function schemaType(schema: unknown, depth = 0): string {
  if (typeof schema !== 'object' || schema === null) return 'any';
  const s = schema as Schema;
  if (depth > MAX_DEPTH) return 'any';
  if (Array.isArray(s.enum)) return s.enum.map((value) => JSON.stringify(value)).join(' | ') || 'never';
  if ('const' in s) return JSON.stringify(s.const);
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union)) return union.map((part) => schemaType(part, depth + 1)).join(' | ') || 'any';
  const type = s.type;
  if (Array.isArray(type)) return type.map((one) => schemaType({ ...s, type: one }, depth)).join(' | ');
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      const item = schemaType(s.items, depth + 1);
      return /^[\w.]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    case 'object':
    case undefined:
      return s.properties || type === 'object' ? objectType(s, depth) : 'any';
    default:
      return 'any';
  }
}

/** An object schema's properties, optional where not required; open objects as `Record<string, any>`. */
function objectType(s: Schema, depth: number): string {
  const properties = (s.properties ?? {}) as Record<string, unknown>;
  const names = Object.keys(properties);
  if (names.length === 0) return 'Record<string, any>';
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  const members = names.map((name) => {
    const prop = properties[name] as Schema | undefined;
    const comment = note(prop?.description, PROP_NOTE);
    const member = `${key(name)}${required.has(name) ? '' : '?'}: ${schemaType(prop, depth + 1)}`;
    return comment ? `/** ${comment} */ ${member}` : member;
  });
  return `{ ${members.join('; ')} }`;
}

/** One tool to declare: where the program calls it, and its definition as the client sees it. */
export interface DeclaredTool {
  namespace: string;
  fn: string;
  tool: Tool;
}

/** One function's declaration line (with its note), for search results and the tool's description. */
export function declareFunction(entry: DeclaredTool): string {
  const comment = note(entry.tool.description, TOOL_NOTE);
  const args = schemaType(entry.tool.inputSchema);
  const optional = (entry.tool.inputSchema.required ?? []).length === 0 ? '?' : '';
  const line = `${key(entry.fn)}(args${optional}: ${args}): Promise<any>;`;
  return comment ? `/** ${comment} */\n${line}` : line;
}

/** `declare const tools: {...}` for the given functions, grouped by namespace. */
export function declareTools(entries: readonly DeclaredTool[]): string {
  const groups = new Map<string, string[]>();
  for (const entry of entries) {
    const group = groups.get(entry.namespace) ?? [];
    group.push(declareFunction(entry).replace(/^/gm, '    '));
    groups.set(entry.namespace, group);
  }
  const body = [...groups].map(([namespace, fns]) => `  ${key(namespace)}: {\n${fns.join('\n')}\n  };`);
  return `declare const tools: {\n${body.join('\n')}\n};`;
}
