/**
 * RFC 6570 URI templates, level 3: the subset the core routes (see
 * electron/core/catalog/uris.ts): expressions with no operator or one of
 * `+ # . / ; ? &`, and simple variable names. Prefix (`:3`) and explode (`*`)
 * modifiers are not expanded (the core refuses templates that use them); a
 * name written with one is read without it.
 *
 * Pure string code: no DOM, no Node, no eval.
 */

interface Operator {
  /** What the expansion starts with when any variable is defined. */
  first: string;
  /** Between the expanded variables. */
  separator: string;
  /** Whether each variable is written as `name=value`. */
  named: boolean;
  /** What follows a named variable whose value is empty (`;x` vs `?x=`). */
  ifEmpty: string;
  /** Whether reserved characters (and %XX triplets) pass unencoded. */
  reserved: boolean;
}

const OPERATORS: Record<string, Operator> = {
  '': { first: '', separator: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', separator: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', separator: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', separator: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', separator: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', reserved: false },
};

const EXPRESSION = /\{([^{}]*)\}/g;
const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

/** Splits an expression body into its operator and variable names (modifiers dropped). */
function parseExpression(body: string): { operator: Operator; names: string[] } | undefined {
  const head = body.charAt(0);
  const hasOperator = head in OPERATORS && head !== '';
  const operator = OPERATORS[hasOperator ? head : ''];
  if (!operator) return undefined;
  const names = (hasOperator ? body.slice(1) : body)
    .split(',')
    .map((name) => name.replace(/\*$|:\d+$/, ''))
    .filter(Boolean);
  return { operator, names };
}

/** Percent-encodes `value`: everything but unreserved characters (and, when `reserved`, reserved ones and %XX). */
function encode(value: string, reserved: boolean): string {
  let out = '';
  for (let i = 0; i < value.length;) {
    const char = String.fromCodePoint(value.codePointAt(i) ?? 0);
    if (UNRESERVED.test(char) || (reserved && RESERVED.test(char))) out += char;
    else if (reserved && char === '%' && /^%[0-9A-Fa-f]{2}/.test(value.slice(i, i + 3))) out += char;
    else out += encodeURIComponent(char).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    i += char.length;
  }
  return out;
}

/** The variable names of `template`, in order, each once. */
export function uriTemplateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(EXPRESSION))
    for (const name of parseExpression(match[1] ?? '')?.names ?? []) if (!names.includes(name)) names.push(name);
  return names;
}

/**
 * Expands `template` with `values` (RFC 6570 level 3). A variable missing from
 * `values` (or undefined) is left out, with its name for named operators;
 * an empty string is a defined, empty value (`{?q}` → `?q=`).
 */
export function expandUriTemplate(template: string, values: Readonly<Record<string, string | undefined>>): string {
  return template.replace(EXPRESSION, (whole, body: string) => {
    const parsed = parseExpression(body);
    if (!parsed) return whole;
    const { operator, names } = parsed;
    const parts: string[] = [];
    for (const name of names) {
      const value = Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined;
      if (value === undefined) continue;
      const encoded = encode(value, operator.reserved);
      if (!operator.named) parts.push(encoded);
      else parts.push(value === '' ? `${name}${operator.ifEmpty}` : `${name}=${encoded}`);
    }
    return parts.length === 0 ? '' : operator.first + parts.join(operator.separator);
  });
}
