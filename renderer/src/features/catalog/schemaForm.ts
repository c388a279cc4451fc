/**
 * A "try it" form generated from a tool's JSON Schema, and its validation.
 *
 * Why not ajv: ajv compiles each schema to code with `new Function`, which the
 * page's Content-Security-Policy (no 'unsafe-eval') forbids; its standalone
 * mode only helps for schemas known at build time, and tool schemas arrive at
 * run time. The form only produces a small subset of JSON values anyway
 * (strings, numbers, integers, booleans, enums, string arrays, and objects
 * typed as JSON), so this module validates exactly that subset: required,
 * type, enum, numeric bounds, string length and pattern, array length; and
 * JSON fields must parse to the declared type. The backend validates fully.
 */

/** How a property is edited. */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'string-array' | 'json';

/** One input of the generated form. */
export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  title?: string;
  description?: string;
  /** Enum choices (any JSON scalars), for `enum`. */
  choices?: readonly (string | number | boolean)[];
  /** The property's schema. */
  schema: Record<string, unknown>;
}

/** Form values as typed: text for everything but checkboxes. */
export type FormValues = Record<string, string | boolean>;

/** The result of reading the form: arguments to send, or errors by field name. */
export interface FormReading {
  arguments: Record<string, unknown>;
  errors: Record<string, string>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The declared JSON type of a schema (first non-null of a type list), if any. */
export function schemaType(schema: Record<string, unknown>): string | undefined {
  const type = schema['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  return undefined;
}

function fieldKind(schema: Record<string, unknown>): FieldKind {
  if (Array.isArray(schema['enum']) && schema['enum'].every((v) => ['string', 'number', 'boolean'].includes(typeof v)))
    return 'enum';
  const type = schemaType(schema);
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return type;
  if (type === 'array' && isRecord(schema['items']) && schemaType(schema['items']) === 'string') return 'string-array';
  return 'json';
}

/** The form fields for a tool's input schema (properties in declaration order). */
export function fieldsFromSchema(inputSchema: Record<string, unknown> | undefined): FormField[] {
  const properties = isRecord(inputSchema?.['properties']) ? inputSchema['properties'] : {};
  const required = Array.isArray(inputSchema?.['required']) ? (inputSchema['required'] as unknown[]) : [];
  return Object.entries(properties).map(([name, raw]) => {
    const schema = isRecord(raw) ? raw : {};
    const kind = fieldKind(schema);
    const field: FormField = { name, kind, required: required.includes(name), schema };
    if (typeof schema['title'] === 'string') field.title = schema['title'];
    if (typeof schema['description'] === 'string') field.description = schema['description'];
    if (kind === 'enum') field.choices = schema['enum'] as (string | number | boolean)[];
    return field;
  });
}

/** Starting values: the schema's defaults where given, else empty. */
export function initialValues(fields: readonly FormField[]): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const fallback = field.schema['default'];
    if (field.kind === 'boolean') values[field.name] = fallback === true;
    else if (fallback === undefined) values[field.name] = '';
    else if (field.kind === 'string-array' && Array.isArray(fallback)) values[field.name] = fallback.join('\n');
    else if (field.kind === 'json') values[field.name] = JSON.stringify(fallback, null, 2);
    else values[field.name] = String(fallback);
  }
  return values;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function checkNumber(value: number, schema: Record<string, unknown>): string | undefined {
  const min = schema['minimum'];
  const max = schema['maximum'];
  const exMin = schema['exclusiveMinimum'];
  const exMax = schema['exclusiveMaximum'];
  if (typeof min === 'number' && value < min) return `must be at least ${min}`;
  if (typeof max === 'number' && value > max) return `must be at most ${max}`;
  if (typeof exMin === 'number' && value <= exMin) return `must be more than ${exMin}`;
  if (typeof exMax === 'number' && value >= exMax) return `must be less than ${exMax}`;
  return undefined;
}

function checkString(value: string, schema: Record<string, unknown>): string | undefined {
  const minLength = schema['minLength'];
  const maxLength = schema['maxLength'];
  const pattern = schema['pattern'];
  if (typeof minLength === 'number' && value.length < minLength) return `must be at least ${minLength} characters`;
  if (typeof maxLength === 'number' && value.length > maxLength) return `must be at most ${maxLength} characters`;
  if (typeof pattern === 'string') {
    try {
      if (!new RegExp(pattern, 'u').test(value)) return `must match ${pattern}`;
    } catch {
      return undefined; // a pattern JavaScript cannot read: leave it to the server
    }
  }
  return undefined;
}

/** Reads one non-empty field; returns its value or an error message. */
function readField(field: FormField, raw: string | boolean): { value?: unknown; error?: string } {
  switch (field.kind) {
    case 'boolean':
      return { value: raw === true };
    case 'number':
    case 'integer': {
      const value = Number(String(raw).trim());
      if (!Number.isFinite(value)) return { error: 'must be a number' };
      if (field.kind === 'integer' && !Number.isInteger(value)) return { error: 'must be a whole number' };
      const problem = checkNumber(value, field.schema);
      return problem ? { error: problem } : { value };
    }
    case 'enum': {
      const value = field.choices?.find((choice) => String(choice) === raw);
      return value === undefined ? { error: 'must be one of the listed values' } : { value };
    }
    case 'string-array': {
      const value = String(raw)
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean);
      const minItems = field.schema['minItems'];
      const maxItems = field.schema['maxItems'];
      if (typeof minItems === 'number' && value.length < minItems) return { error: `needs at least ${minItems} items` };
      if (typeof maxItems === 'number' && value.length > maxItems) return { error: `takes at most ${maxItems} items` };
      return { value };
    }
    case 'json': {
      let value: unknown;
      try {
        value = JSON.parse(String(raw));
      } catch {
        return { error: 'must be valid JSON' };
      }
      const declared = schemaType(field.schema);
      const actual = jsonTypeOf(value);
      const fits = !declared || declared === actual || (declared === 'number' && actual === 'integer');
      return fits ? { value } : { error: `must be JSON of type ${declared}` };
    }
    case 'string': {
      const problem = checkString(String(raw), field.schema);
      return problem ? { error: problem } : { value: String(raw) };
    }
  }
}

/** Validates the form and builds the tool's arguments; empty optional fields are left out. */
export function readForm(fields: readonly FormField[], values: FormValues): FormReading {
  const reading: FormReading = { arguments: {}, errors: {} };
  for (const field of fields) {
    const raw = values[field.name] ?? (field.kind === 'boolean' ? false : '');
    const empty = field.kind === 'boolean' ? raw !== true && !field.required : String(raw).trim() === '';
    if (empty) {
      if (field.required) reading.errors[field.name] = 'is required';
      continue;
    }
    const { value, error } = readField(field, raw);
    if (error) reading.errors[field.name] = error;
    else reading.arguments[field.name] = value;
  }
  return reading;
}
