/**
 * Checks fixed values and defaults against the tool's own input schema, so a
 * value the server would refuse is caught when the override is saved (and
 * reported on the server at each catalog build) instead of failing every
 * call. Each problem names the field by its dotted path inside the override
 * (`arguments.path.fixed: must be string`). ajv loads on first use.
 */
import type { Ajv } from 'ajv';
import type { Tool } from '@modelcontextprotocol/client';
import { lazyRequire } from '../../platform/env/lazyRequire.js';
import type { ArgumentOverride } from '../../platform/config/overridesConfig.js';

const ajvModule = lazyRequire<{ Ajv: typeof Ajv }>('ajv');
let shared: Ajv | undefined;

/** One problem: the field inside the override and what is wrong with its value. */
export interface ArgumentProblem {
  path: string;
  message: string;
}

/** Problems of every fixed value and default in `args` against `schema` (none when all fit). */
export function argumentProblems(
  schema: Tool['inputSchema'],
  args: Record<string, ArgumentOverride> | undefined,
): ArgumentProblem[] {
  if (!args) return [];
  const problems: ArgumentProblem[] = [];
  for (const [argument, override] of Object.entries(args)) {
    const field = 'fixed' in override ? 'fixed' : 'default' in override ? 'default' : undefined;
    if (!field) continue;
    const message = valueProblem(schema, argument, override[field]);
    if (message) problems.push({ path: `arguments.${argument}.${field}`, message });
  }
  return problems;
}

/** Why `value` does not fit the argument's property in `schema` (with the schema's own definitions); undefined if it fits. */
function valueProblem(schema: Tool['inputSchema'], argument: string, value: unknown): string | undefined {
  const property = schema.properties?.[argument];
  if (property === undefined) {
    return schema.additionalProperties === false ? `the tool has no argument "${argument}"` : undefined;
  }
  // The whole schema with only this property, so $ref to its $defs still resolves.
  const { required: _required, $id: _id, ...rest } = schema as Record<string, unknown>;
  const probe = { ...rest, properties: { [argument]: property }, additionalProperties: true };
  shared ??= new (ajvModule().Ajv)({ allErrors: true, strict: false, validateFormats: false });
  try {
    const validate = shared.compile(probe);
    if (validate({ [argument]: value })) return undefined;
    const error = validate.errors?.[0];
    const where = error?.instancePath.split('/').slice(2).join('.');
    return `${where ? `${where}: ` : ''}${error?.message ?? "does not match the tool's input schema"}`;
  } catch {
    return undefined; // A schema ajv cannot compile is the server's to enforce.
  } finally {
    shared.removeSchema(probe); // ajv caches every schema it compiled: memory stays bounded.
  }
}
