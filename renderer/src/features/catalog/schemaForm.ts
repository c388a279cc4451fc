/**
 * A form generated from a JSON Schema, and its validation: a tool's input
 * schema in "try it", and a server's elicitation `requestedSchema` (MCP
 * 2025-11-25 client/elicitation: a flat object of string, number, integer,
 * boolean and enum properties, single- or multi-select, titled through
 * `oneOf`/`anyOf` `const` + `title` or the legacy `enumNames`; string
 * `format` email, uri, date, date-time).
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
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi-enum' | 'string-array' | 'json';

/** One input of the generated form. */
export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  title?: string;
  description?: string;
  /** Enum choices (any JSON scalars), for `enum` and `multi-enum`. */
  choices?: readonly (string | number | boolean)[];
  /** What each choice is shown as (its title), in the order of `choices`. */
  choiceLabels?: readonly string[];
  /** The property's schema. */
  schema: Record<string, unknown>;
}

/** One field's value as typed: text, a checkbox, or the choices ticked of a multi-select. */
export type FormValue = string | boolean | string[];

/** Form values as typed, by field name. */
export type FormValues = Record<string, FormValue>;

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

type Scalar = string | number | boolean;
const isScalar = (value: unknown): value is Scalar => ['string', 'number', 'boolean'].includes(typeof value);

/** The choices of an enum-like schema (`enum`, or `oneOf` / `anyOf` of `const`s), with their titles. */
export function enumChoices(schema: Record<string, unknown>): { choices: Scalar[]; labels: string[] } | undefined {
  const values = schema['enum'];
  if (Array.isArray(values) && values.length > 0 && values.every(isScalar)) {
    const names = schema['enumNames'];
    const labels = values.map((value, i) =>
      Array.isArray(names) && typeof names[i] === 'string' ? names[i] : String(value),
    );
    return { choices: values, labels };
  }
  const options = Array.isArray(schema['oneOf']) ? schema['oneOf'] : schema['anyOf'];
  if (Array.isArray(options) && options.length > 0 && options.every((o) => isRecord(o) && isScalar(o['const']))) {
    const consts = options as Record<string, unknown>[];
    return {
      choices: consts.map((o) => o['const'] as Scalar),
      labels: consts.map((o) => (typeof o['title'] === 'string' ? o['title'] : String(o['const']))),
    };
  }
  return undefined;
}

function fieldKind(schema: Record<string, unknown>): FieldKind {
  if (enumChoices(schema)) return 'enum';
  const type = schemaType(schema);
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return type;
  if (type === 'array' && isRecord(schema['items']) && enumChoices(schema['items'])) return 'multi-enum';
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
    const choices =
      kind === 'enum'
        ? enumChoices(schema)
        : kind === 'multi-enum'
          ? enumChoices(schema['items'] as Record<string, unknown>)
          : undefined;
    if (choices) {
      field.choices = choices.choices;
      field.choiceLabels = choices.labels;
    }
    return field;
  });
}

/** Starting values: the schema's defaults where given, else empty. */
export function initialValues(fields: readonly FormField[]): FormValues {
  const values: FormValues = {};
  for (const field of fields) {
    const fallback = field.schema['default'];
    if (field.kind === 'boolean') values[field.name] = fallback === true;
    else if (field.kind === 'multi-enum') values[field.name] = Array.isArray(fallback) ? fallback.map(String) : [];
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
  const format = schema['format'];
  if (format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(value)) return 'must be an email address';
  if (format === 'uri' && !URL.canParse(value)) return 'must be a URL (such as https://example.com)';
  if (format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(value)) return 'must be a date (YYYY-MM-DD)';
  if (format === 'date-time' && Number.isNaN(Date.parse(value))) return 'must be a date and time (ISO 8601)';
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
function readField(field: FormField, raw: FormValue): { value?: unknown; error?: string } {
  switch (field.kind) {
    case 'multi-enum': {
      const picked = Array.isArray(raw) ? raw : [];
      const value = picked.map((text) => field.choices?.find((choice) => String(choice) === text));
      if (value.some((choice) => choice === undefined)) return { error: 'must be among the listed values' };
      const minItems = field.schema['minItems'];
      const maxItems = field.schema['maxItems'];
      if (typeof minItems === 'number' && value.length < minItems)
        return { error: `needs at least ${minItems} choices` };
      if (typeof maxItems === 'number' && value.length > maxItems)
        return { error: `takes at most ${maxItems} choices` };
      return { value };
    }
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
    const raw = values[field.name] ?? (field.kind === 'boolean' ? false : field.kind === 'multi-enum' ? [] : '');
    const empty =
      field.kind === 'boolean'
        ? raw !== true && !field.required
        : Array.isArray(raw)
          ? raw.length === 0
          : String(raw).trim() === '';
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
