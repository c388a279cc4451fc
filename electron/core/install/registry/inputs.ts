/**
 * The inputs a server.json entry asks for (arguments, `{variables}` inside
 * values, environment variables, headers) as form fields, and filling them:
 * `{curly_braces}` in a `value` are replaced from its `variables`, and left
 * as they are when a variable is unknown (server.schema.json, Input.value).
 */
import type { RegistryFieldView } from '../../../../shared/model/registryViews.js';
import type { InputValues } from '../entries/saveEntry.js';
import type { KeyValueInput, ServerArgument, ServerInput } from './registryTypes.js';

/**
 * One value the user may give. `key` is unique within an entry (`env:API_KEY`, `header:X-Api-Key`,
 * `arg:path`, `var:host`); `name` is what the user types in `--env NAME=...` / `--header NAME=...` /
 * `--arg NAME=...`; `repeated`: several values, each its own argument. The UI's form field is this
 * same shape (shared/model/registryViews.ts).
 */
export type InputField = RegistryFieldView;

function field(key: string, kind: InputField['kind'], name: string, input: ServerInput, repeated = false): InputField {
  const out: InputField = {
    key,
    kind,
    name,
    required: input.isRequired === true,
    secret: input.isSecret === true,
    repeated,
  };
  if (input.description !== undefined) out.description = input.description;
  if (input.default !== undefined) out.default = input.default;
  if (input.placeholder !== undefined) out.placeholder = input.placeholder;
  if (input.choices !== undefined && input.choices.length > 0) out.choices = input.choices;
  if (input.format !== undefined) out.format = input.format;
  return out;
}

/** The key of an argument's own value: its valueHint (positional) or flag name (named). */
export function argumentKey(argument: ServerArgument): string {
  return `arg:${argument.type === 'named' ? (argument.name ?? '') : (argument.valueHint ?? '')}`;
}

/** The field of one `{variable}`. */
export function variableField(name: string, input: ServerInput): InputField {
  return field(`var:${name}`, 'variable', name, input);
}

function variableFields(variables: Record<string, ServerInput> | undefined): InputField[] {
  return Object.entries(variables ?? {}).map(([name, input]) => variableField(name, input));
}

/** Fields of arguments: a fixed `value` asks only for its variables; otherwise the argument itself is asked for. */
export function argumentFields(args: ServerArgument[] | undefined): InputField[] {
  const out: InputField[] = [];
  for (const argument of args ?? []) {
    if (argument.value === undefined) {
      const name = argument.type === 'named' ? (argument.name ?? '') : (argument.valueHint ?? '');
      out.push(field(argumentKey(argument), 'argument', name, argument, argument.isRepeated === true));
    }
    out.push(...variableFields(argument.variables));
  }
  return out;
}

/** Fields of environment variables or headers. */
export function keyValueFields(kind: 'env' | 'header', inputs: KeyValueInput[] | undefined): InputField[] {
  const out: InputField[] = [];
  for (const input of inputs ?? []) {
    if (input.value === undefined) out.push(field(`${kind}:${input.name}`, kind, input.name, input));
    out.push(...variableFields(input.variables));
  }
  return out;
}

/** Required fields first, then the rest, each key once (a variable shared by two values is asked once). */
export function orderFields(fields: InputField[]): InputField[] {
  const seen = new Set<string>();
  const unique = fields.filter((f) => (seen.has(f.key) ? false : (seen.add(f.key), true)));
  return [...unique.filter((f) => f.required), ...unique.filter((f) => !f.required)];
}

/** A problem with the values given. */
export class InputError extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
    this.name = 'InputError';
  }
}

function valuesOf(values: InputValues, key: string): string[] {
  const raw = values[key];
  if (raw === undefined) return [];
  return (Array.isArray(raw) ? raw : [raw]).filter((v) => v !== '');
}

/** The value(s) of a field: what the user gave, else its default; checked against `choices`. */
export function resolveField(input: ServerInput, key: string, label: string, values: InputValues): string[] {
  const given = valuesOf(values, key);
  const chosen = given.length > 0 ? given : input.default !== undefined ? [input.default] : [];
  if (chosen.length === 0 && input.isRequired) throw new InputError(key, `${label} is required`);
  for (const value of chosen) {
    if (input.choices && input.choices.length > 0 && !input.choices.includes(value)) {
      throw new InputError(key, `${label} must be one of ${input.choices.join(', ')}, not "${value}"`);
    }
  }
  return chosen;
}

/**
 * `value` with each `{name}` replaced from `variables` (the user's value or
 * the variable's default); an unknown `{name}` stays as it is.
 */
export function substitute(
  value: string,
  variables: Record<string, ServerInput> | undefined,
  values: InputValues,
  label: string,
): { text: string; secret: boolean } {
  let secret = false;
  const text = value.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
    const variable = variables?.[name];
    if (!variable) return whole;
    const [resolved] = resolveField(variable, `var:${name}`, `${label}: variable {${name}}`, values);
    if (resolved === undefined) throw new InputError(`var:${name}`, `${label}: variable {${name}} has no value`);
    if (variable.isSecret) secret = true;
    return resolved;
  });
  return { text, secret };
}
