/**
 * SEP-2243 parameter headers (MCP 2026-07-28, Streamable HTTP): a tool's
 * input schema may mark a primitive parameter with `x-mcp-header: <Name>`, and
 * a client then repeats that argument as an `Mcp-Param-<Name>` header (values
 * that are not plain visible ASCII travel as `=?base64?<UTF-8 bytes>?=`), so
 * gateways can route on it without reading the body. A server MUST answer a
 * missing, badly encoded or disagreeing header with HTTP 400 and JSON-RPC
 * -32020 (HeaderMismatch).
 *
 * Both ends are ours to do here. The SDK checks headers only inside
 * createMcpHandler for a high-level McpServer's registered tools, and writes
 * them only in Client.callTool; neither helper is exported. Our frontend
 * serves the catalog's tools from a low-level Server (frontend/http checks
 * with this module), and a task-declaring call to a 2026-07-28 backend goes
 * out as a raw request (backends/connection writes its headers with this
 * module). Pure functions only.
 */

/** JSON-RPC error code of a header/body disagreement (SEP-2243). */
export const HEADER_MISMATCH = -32020;

/** The prefix of every parameter header. */
export const PARAM_HEADER_PREFIX = 'Mcp-Param-';

/** One parameter a tool repeats in a header. */
export interface ParamHeader {
  /** Property names from the argument object down to the parameter. */
  path: readonly string[];
  /** The `<Name>` of `Mcp-Param-<Name>`. */
  name: string;
  /** The property's JSON Schema `type`, when it names one. */
  type: string | undefined;
}

/** A disagreement between a header and the body, ready for the error's `data`. */
export interface ParamHeaderMismatch {
  /** The header concerned, e.g. `Mcp-Param-Region`. */
  header: string;
  /** What is wrong, for a person. */
  message: string;
}

/** RFC 9110 `token`: what a header name suffix may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';
/** Canonical Base64 (standard alphabet, exact padding): anything else is refused, not guessed at. */
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;
/** How deep a `properties` chain is followed (schemas come from backends: bound the walk). */
const MAX_DEPTH = 32;

/**
 * The parameter headers a tool's input schema declares: every `x-mcp-header`
 * reached through a chain of `properties` (the only place the spec allows
 * it). Declarations elsewhere, or whose name is not an HTTP token, are not
 * headers a client could send, so they are not expected either.
 */
export function paramHeadersOf(inputSchema: unknown): ParamHeader[] {
  const found: ParamHeader[] = [];
  const visit = (node: unknown, path: string[]): void => {
    if (node === null || typeof node !== 'object' || path.length > MAX_DEPTH) return;
    const schema = node as Record<string, unknown>;
    const name = schema['x-mcp-header'];
    if (path.length > 0 && typeof name === 'string' && TOKEN.test(name)) {
      found.push({ path, name, type: typeof schema.type === 'string' ? schema.type : undefined });
    }
    const properties = schema.properties;
    if (properties === null || typeof properties !== 'object') return;
    for (const [key, child] of Object.entries(properties)) visit(child, [...path, key]);
  };
  visit(inputSchema, []);
  return found;
}

/**
 * The value a header carries: the decoded text of a `=?base64?…?=` value, the
 * value itself otherwise (a value missing either end of the sentinel is
 * literal). Undefined when the sentinel holds anything but canonical Base64 of
 * valid UTF-8.
 */
export function decodeParamValue(value: string): string | undefined {
  if (!value.startsWith(SENTINEL_START) || !value.endsWith(SENTINEL_END)) return value;
  if (value.length < SENTINEL_START.length + SENTINEL_END.length) return value;
  const base64 = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  if (!CANONICAL_BASE64.test(base64)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(base64, 'base64'));
  } catch {
    return undefined;
  }
}

/**
 * A header value for `text`: as is when it is a plain visible-ASCII field
 * value, else `=?base64?…?=` (non-ASCII or control characters, edge
 * whitespace that HTTP would strip, an empty value, or text that would read
 * as the sentinel itself).
 */
export function encodeParamValue(text: string): string {
  const plain =
    text.length > 0 &&
    text === text.trim() &&
    !(text.startsWith(SENTINEL_START) && text.endsWith(SENTINEL_END)) &&
    /^[\x20-\x7e\t]*$/.test(text);
  return plain ? text : `${SENTINEL_START}${Buffer.from(text, 'utf8').toString('base64')}${SENTINEL_END}`;
}

/** The `Mcp-Param-*` headers a call with `args` sends for a tool declaring `params` (absent and null arguments send none). */
export function paramHeaderValues(params: readonly ParamHeader[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const param of params) {
    const value = argumentAt(args, param.path);
    const text = value === null || value === undefined ? undefined : paramText(value);
    if (text !== undefined) headers[`${PARAM_HEADER_PREFIX}${param.name}`] = encodeParamValue(text);
  }
  return headers;
}

/** How a primitive argument is written in its header; undefined for values no header carries. */
export function paramText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** The argument at `path`, if the arguments have one there. */
function argumentAt(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Whether a decoded header value says the same as the body's value (numbers compare as numbers: `42.0` is `42`). */
function agrees(param: ParamHeader, decoded: string, value: unknown, text: string): boolean {
  const numeric = param.type === 'integer' || param.type === 'number';
  if (numeric && typeof value === 'number' && DECIMAL.test(decoded)) return Number(decoded) === value;
  return decoded === text;
}

/**
 * The first parameter header that is missing, badly encoded or disagrees
 * with the call's arguments; undefined when all agree. `header` reads a
 * request header by lowercase name. An argument that is absent or null
 * expects no header (one sent anyway is ignored), as the spec says.
 */
export function paramHeaderMismatch(
  params: readonly ParamHeader[],
  args: unknown,
  header: (lowercaseName: string) => string | undefined,
): ParamHeaderMismatch | undefined {
  for (const param of params) {
    const value = argumentAt(args, param.path);
    const text = value === null || value === undefined ? undefined : paramText(value);
    if (text === undefined) continue;
    const name = `${PARAM_HEADER_PREFIX}${param.name}`;
    const where = param.path.join('.');
    const sent = header(name.toLowerCase());
    if (sent === undefined) {
      return { header: name, message: `the ${name} header is missing, but the arguments carry ${where}` };
    }
    const decoded = decodeParamValue(sent);
    if (decoded === undefined) {
      return { header: name, message: `the ${name} header's =?base64?…?= value is not valid Base64 of UTF-8 text` };
    }
    if (!agrees(param, decoded, value, text)) {
      return { header: name, message: `the ${name} header does not match the argument ${where}` };
    }
  }
  return undefined;
}
