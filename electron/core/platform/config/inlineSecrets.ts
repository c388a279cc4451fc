/**
 * Secrets written inline in a server's URL or command line rather than in
 * env or headers: a URL's user-info password, URL query values of
 * secret-looking names (`?api_key=…`), and the value of a secret-looking flag
 * (`--token X`, `--api-key=X`), also inside URLs given as arguments. Found
 * here so the UI shows them masked and the redaction (audit log, UI answers)
 * knows their values. `${VAR}` references are names, not secrets: kept.
 */

/** What a masked value shows instead. */
export const MASK = '****';

const SECRET_NAME =
  /(token|secret|passw(or)?d|(^|[_-])pwd$|api[_-]?key|access[_-]?key|private[_-]?key|(^|[_-])key$|^key|auth|credential|cookie|signature|^sig$)/i;
/** Flags that name where a secret is, not the secret itself (`--token-file path`, `--auth-type bearer`). */
const NOT_A_VALUE = /(file|path|dir|url|uri|name|id|type|method|mode|header|env|var|scheme|server|provider)$/i;
const REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}/g;
const URL_START = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Whether a value holds more than `${VAR}` references (an empty one holds nothing). */
function literal(value: string): boolean {
  return value.replace(REFERENCE, '').trim() !== '';
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A secret-looking query parameter or flag name (without dashes). */
export function secretName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_A_VALUE.test(name);
}

/** A URL with its secrets masked, and the (decoded and raw) secret values found. */
export function inspectUrl(url: string): { masked: string; secrets: string[] } {
  const secrets: string[] = [];
  const scheme = URL_START.exec(url);
  if (!scheme) return { masked: url, secrets };
  let rest = url.slice(scheme[0].length);
  let head = scheme[0];
  // User-info: `user:password@host` (the password part; a lone user name is kept).
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  if (at !== -1) {
    const userInfo = authority.slice(0, at);
    const colon = userInfo.indexOf(':');
    if (colon !== -1 && literal(userInfo.slice(colon + 1))) {
      const password = userInfo.slice(colon + 1);
      secrets.push(password, decode(password));
      head += `${userInfo.slice(0, colon + 1)}${MASK}@`;
      rest = rest.slice(at + 1);
    }
  }
  // Query: every `name=value` whose name looks secret.
  const hashAt = rest.indexOf('#');
  const fragment = hashAt === -1 ? '' : rest.slice(hashAt);
  const beforeHash = hashAt === -1 ? rest : rest.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  if (queryAt === -1) return { masked: head + rest, secrets };
  const query = beforeHash
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return pair;
      const value = pair.slice(eq + 1);
      if (!secretName(decode(pair.slice(0, eq))) || !literal(decode(value))) return pair;
      secrets.push(value, decode(value));
      return `${pair.slice(0, eq + 1)}${MASK}`;
    })
    .join('&');
  return { masked: `${head}${beforeHash.slice(0, queryAt)}?${query}${fragment}`, secrets };
}

/** The secret parts of a URL by where they sit: the user-info password and query values by name (raw). */
function urlSecretParts(url: string): { password?: string; query: Map<string, string> } {
  const parts: { password?: string; query: Map<string, string> } = { query: new Map() };
  const scheme = URL_START.exec(url);
  if (!scheme) return parts;
  const rest = url.slice(scheme[0].length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  const colon = at === -1 ? -1 : authority.slice(0, at).indexOf(':');
  if (colon !== -1) parts.password = authority.slice(colon + 1, at);
  const beforeHash = rest.split('#')[0] ?? '';
  const queryAt = beforeHash.indexOf('?');
  if (queryAt === -1) return parts;
  for (const pair of beforeHash.slice(queryAt + 1).split('&')) {
    const eq = pair.indexOf('=');
    if (eq !== -1) parts.query.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return parts;
}

/**
 * An edited URL with each masked part (`****` as the UI showed it) given back
 * its real value from the URL it replaces: the password, or the query value of
 * the same name. An edit of the host or path then keeps the API key; a part
 * the user typed anew stays as typed.
 */
export function restoreMaskedUrl(previous: string, next: string): string {
  if (!next.includes(MASK)) return next;
  const real = urlSecretParts(previous);
  const scheme = URL_START.exec(next);
  if (!scheme) return next;
  let rest = next.slice(scheme[0].length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd === -1 ? rest : rest.slice(0, authorityEnd);
  const at = authority.lastIndexOf('@');
  if (at !== -1 && real.password !== undefined && authority.slice(0, at).endsWith(`:${MASK}`)) {
    const user = authority.slice(0, at - MASK.length);
    rest = `${user}${real.password}${rest.slice(at)}`;
  }
  const hashAt = rest.indexOf('#');
  const fragment = hashAt === -1 ? '' : rest.slice(hashAt);
  const beforeHash = hashAt === -1 ? rest : rest.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  if (queryAt === -1) return scheme[0] + rest;
  const query = beforeHash
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      const value = real.query.get(name);
      return eq !== -1 && pair.slice(eq + 1) === MASK && value !== undefined ? `${name}=${value}` : pair;
    })
    .join('&');
  return `${scheme[0]}${beforeHash.slice(0, queryAt)}?${query}${fragment}`;
}

/** Arguments with their secrets masked (same length, same order), and the secret values found. */
export function inspectArgs(args: readonly string[]): { masked: string[]; secrets: string[] } {
  const secrets: string[] = [];
  const masked: string[] = [];
  const url = (value: string): string => {
    if (!URL_START.test(value)) return value;
    const found = inspectUrl(value);
    secrets.push(...found.secrets);
    return found.masked;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const flag = /^--?([A-Za-z0-9][A-Za-z0-9_.-]*)(=([\s\S]*))?$/.exec(arg);
    if (flag && secretName(flag[1] as string)) {
      const inline = flag[3];
      if (inline !== undefined) {
        if (literal(inline)) {
          secrets.push(inline);
          masked.push(`${arg.slice(0, arg.length - inline.length)}${MASK}`);
        } else masked.push(arg);
        continue;
      }
      const next = args[i + 1];
      masked.push(arg);
      if (next !== undefined && !next.startsWith('-')) {
        i++;
        if (literal(next)) {
          secrets.push(next);
          masked.push(MASK);
        } else masked.push(next);
      }
      continue;
    }
    if (flag?.[3] !== undefined) {
      masked.push(`${arg.slice(0, arg.length - flag[3].length)}${url(flag[3])}`);
      continue;
    }
    masked.push(url(arg));
  }
  return { masked, secrets };
}

/** The inline secrets of a backend's URL or arguments. */
export function inlineSecrets(backend: { url?: string; args?: readonly string[] }): string[] {
  const found = [
    ...(backend.url !== undefined ? inspectUrl(backend.url).secrets : []),
    ...(backend.args !== undefined ? inspectArgs(backend.args).secrets : []),
  ];
  return [...new Set(found)].filter((value) => value.length > 0);
}
