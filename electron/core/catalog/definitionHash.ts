/**
 * The pinned parts of a tool definition and their hash: what tool pinning
 * (catalog/policy/pinStore.ts) trusts, and what the catalog cache (catalogCache.ts)
 * keys a backend's saved tools by. Key order never changes a hash.
 */
import { createHash } from 'node:crypto';

/** The parts of a tool definition that are pinned; other fields (`title`, `icons`, `_meta`) may change freely. */
export interface PinnedDefinition {
  name: string;
  description?: string;
  inputSchema?: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

/** Keeps only the five pinned fields, as plain JSON (no aliasing of the caller's objects). */
export function pinnedFields(def: PinnedDefinition): PinnedDefinition {
  const { name, description, inputSchema, outputSchema, annotations } = def;
  return JSON.parse(JSON.stringify({ name, description, inputSchema, outputSchema, annotations })) as PinnedDefinition;
}

/** JSON with object keys sorted at every level, so key order never changes a hash. */
export function canonical(value: unknown): string {
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : canonical(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** SHA-256 (hex) of the canonical JSON of name, description, input and output schema, and annotations. */
export function definitionHash(def: PinnedDefinition): string {
  return createHash('sha256')
    .update(canonical(pinnedFields(def)))
    .digest('hex');
}
