/**
 * The forms a known secret can take when it reaches a sink. A header value
 * such as `Bearer abc…` is sent whole, but a server that echoes what it
 * received may print only the credential after the scheme, or (HTTP Basic,
 * RFC 7617) the decoded `user:password` or the password alone; an OAuth token
 * set kept in the keychain as JSON is sent as its `access_token`. Each of
 * those must be redacted like the value itself.
 */

/** Schemes whose credential follows after a space (RFC 9110 §11.4 `credentials = auth-scheme [ 1*SP token68 ]`). */
const SCHEME = /^(bearer|basic|token|bot|dpop|apikey|api-key)\s+(\S.*)$/i;
/** JSON keys (an OAuth token set, a client registration) whose string values are credentials. */
const CREDENTIAL_KEY = /token|secret|verifier|password|credential|key/i;
/** `${VAR}` or `${VAR:-default}`. */
const REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}/g;
const SCHEME_ONLY = /^(bearer|basic|token|bot|dpop|apikey|api-key)$/i;
/** Shortest derived value kept: a credential of 8 characters or fewer after a scheme is not worth mangling text for. */
const MIN_DERIVED = 8;

function fromJson(value: string): string[] {
  if (!value.startsWith('{')) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [];
  }
  const out: string[] = [];
  const walk = (node: unknown, key: string): void => {
    if (typeof node === 'string') {
      if (CREDENTIAL_KEY.test(key) && node.length >= MIN_DERIVED) out.push(node);
    } else if (Array.isArray(node)) node.forEach((item) => walk(item, key));
    else if (node !== null && typeof node === 'object') {
      for (const [child, item] of Object.entries(node)) walk(item, child);
    }
  };
  walk(parsed, '');
  return out;
}

function fromBasic(credential: string): string[] {
  if (!/^[A-Za-z0-9+/]+=*$/.test(credential)) return [];
  const decoded = Buffer.from(credential, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1 || !/^[\x20-\x7e]+$/.test(decoded)) return [];
  const password = decoded.slice(colon + 1);
  return password.length >= MIN_DERIVED ? [decoded, password] : [decoded];
}

/**
 * `value` and the other forms it may be seen in: the credential after an
 * auth scheme, a Basic credential decoded, the credential strings of a JSON
 * token set. Every form is at least as long as a secret must be to be
 * redacted (the caller filters short ones).
 */
export function secretVariants(value: string): string[] {
  // An unexpanded `${VAR}` reference (the variable is not set) names a secret, it is none.
  const literal = value.replace(REFERENCE, '').trim();
  if (literal === '' || SCHEME_ONLY.test(literal)) return [];
  const out = [value];
  const scheme = SCHEME.exec(value.trim());
  if (scheme) {
    const credential = (scheme[2] ?? '').trim();
    if (credential.length >= MIN_DERIVED) out.push(credential);
    if (scheme[1]?.toLowerCase() === 'basic') out.push(...fromBasic(credential));
  }
  out.push(...fromJson(value));
  return out;
}

/**
 * Well-known credential shapes, redacted even when no configuration names
 * them (a server's stderr quoting a token of its own): GitHub, OpenAI and
 * Anthropic style `sk-`, Slack, GitLab, AWS access key IDs, Google API keys.
 */
export const TOKEN_SHAPES =
  /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|sk-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|glpat-[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35})/g;
