/**
 * Advertised resource URIs: `mcp-proxy://<backend id>/<original uri>`, and the
 * same for templates. Backend IDs cannot contain `/`, so the first path
 * segment names the backend unambiguously.
 */
import { UriTemplate } from '@modelcontextprotocol/client';

const SCHEME = 'mcp-proxy://';

/** The URI under which a backend's resource (or template) is advertised. */
export function advertisedUri(backendId: string, original: string): string {
  return `${SCHEME}${backendId}/${original}`;
}

/** Splits an advertised URI into backend ID and original URI; undefined if it is not one of ours. */
export function parseAdvertisedUri(uri: string): { backendId: string; original: string } | undefined {
  if (!uri.startsWith(SCHEME)) return undefined;
  const rest = uri.slice(SCHEME.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return undefined;
  return { backendId: rest.slice(0, slash), original: rest.slice(slash + 1) };
}

/**
 * The RFC 6570 subset we route: level 1-3 expressions with the operators
 * `+ # . / ? &` and simple variable names. Prefix modifiers (`:3`), explode
 * (`*`) and the path-parameter operator `;` are refused: the SDK's matcher
 * (used to route reads of template instances) cannot match them reliably.
 * Returns the reason a template is refused, or undefined when it is supported.
 */
export function unsupportedTemplateReason(template: string): string | undefined {
  let depth = 0;
  for (const char of template) {
    if (char === '{') depth++;
    if (char === '}') depth--;
    if (depth < 0 || depth > 1) return 'unbalanced braces';
  }
  if (depth !== 0) return 'unbalanced braces';
  const expressions = [...template.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] ?? '');
  if (expressions.length === 0) return 'no template expression';
  for (const expression of expressions) {
    if (expression === '') return 'empty expression {}';
    const operator = /^[+#./?&;=,!@|]/.test(expression) ? expression[0] : '';
    if (operator === ';') return `path-style parameter operator ";" in {${expression}} is not supported`;
    if (operator && '=,!@|'.includes(operator)) return `reserved operator "${operator}" in {${expression}}`;
    for (const variable of expression.slice(operator ? 1 : 0).split(',')) {
      if (/:\d+$/.test(variable)) return `prefix modifier in {${expression}} is not supported`;
      if (variable.endsWith('*')) return `explode modifier in {${expression}} is not supported`;
      if (!/^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/.test(variable)) {
        return `invalid variable name "${variable}" in {${expression}}`;
      }
    }
  }
  try {
    new UriTemplate(template);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return undefined;
}
