/**
 * A tool's input schema as the model sees it under argument overrides: a
 * fixed argument is gone (the model cannot see or set it), a default is
 * written into its property and it is no longer required (the proxy fills it
 * in), and a new description replaces the server's.
 */
import type { Tool } from '@modelcontextprotocol/client';
import type { ArgumentOverride } from '../../platform/config/overridesConfig.js';

type InputSchema = Tool['inputSchema'];

/** The schema with `args` applied; the server's schema object is never changed. */
export function overriddenSchema(schema: InputSchema, args: Record<string, ArgumentOverride>): InputSchema {
  const properties: Record<string, unknown> = { ...schema.properties };
  let required = schema.required ? [...schema.required] : undefined;
  for (const [argument, override] of Object.entries(args)) {
    if ('fixed' in override) {
      delete properties[argument];
      required = required?.filter((name) => name !== argument);
      continue;
    }
    const own = (properties[argument] ?? {}) as Record<string, unknown>;
    const next: Record<string, unknown> = { ...own };
    if ('default' in override) {
      next['default'] = override.default;
      required = required?.filter((name) => name !== argument);
    }
    if (override.description !== undefined) next['description'] = override.description;
    properties[argument] = next;
  }
  const out: InputSchema = { ...schema, properties: properties as InputSchema['properties'] };
  if (required === undefined || required.length === 0) delete out.required;
  else out.required = required;
  return out;
}
