/**
 * `call_tool`'s check of the arguments against the named tool's input schema.
 * A model in search mode usually saw only the compact form of a tool (its
 * argument names and types), so when its arguments do not fit it gets back,
 * as a tool error it can read, what was wrong and the tool's exact schema,
 * and recovers in one step instead of calling `describe_tools` and retrying.
 * Only `call_tool` checks: a direct tools/call goes to the server as it came.
 * A validator is compiled once per schema object (the catalog's tool objects
 * live until the next catalog build) and ajv loads on the first check.
 */
import type { Ajv, ValidateFunction } from 'ajv';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { lazyRequire } from '../../platform/env/lazyRequire.js';
import { CALL_TOOL } from './metaTools.js';

const ajvModule = lazyRequire<{ Ajv: typeof Ajv }>('ajv');
let shared: Ajv | undefined;
/** Each schema's validator; null where ajv cannot compile it (the server is left to enforce it). */
const validators = new WeakMap<object, ValidateFunction | null>();

/** At most this many problems are named. */
const MAX_PROBLEMS = 5;

function validatorOf(schema: Tool['inputSchema']): ValidateFunction | null {
  let validate = validators.get(schema);
  if (validate !== undefined) return validate;
  shared ??= new (ajvModule().Ajv)({ allErrors: true, strict: false, validateFormats: false });
  try {
    validate = shared.compile(schema);
  } catch {
    validate = null;
  } finally {
    shared.removeSchema(schema); // ajv caches what it compiled; the WeakMap holds it as long as the tool lives.
  }
  validators.set(schema, validate);
  return validate;
}

/**
 * Undefined when `args` fit `tool`'s input schema (or the schema cannot be
 * checked here); otherwise the error result `call_tool` answers with.
 */
export function argumentsError(tool: Tool, args: Record<string, unknown> | undefined): CallToolResult | undefined {
  const validate = validatorOf(tool.inputSchema);
  if (validate === null || validate(args ?? {})) return undefined;
  const problems = (validate.errors ?? []).slice(0, MAX_PROBLEMS).map((error) => {
    const where = error.instancePath === '' ? 'arguments' : `arguments${error.instancePath.replaceAll('/', '.')}`;
    const extra =
      error.keyword === 'additionalProperties'
        ? ` ("${String((error.params as { additionalProperty?: unknown }).additionalProperty)}")`
        : '';
    return `${where} ${error.message ?? 'does not match'}${extra}`;
  });
  const text =
    `${CALL_TOOL}: the arguments for ${tool.name} do not fit its input schema: ${problems.join('; ')}. ` +
    `Call it again with arguments that follow this inputSchema:\n${JSON.stringify(tool.inputSchema)}`;
  return {
    isError: true,
    content: [{ type: 'text', text }],
  };
}
