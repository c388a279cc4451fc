/**
 * Which env variable and header names hold secrets (`GITHUB_TOKEN`,
 * `OPENAI_API_KEY`, `DB_PASSWORD`, `Authorization`): the one rule the import
 * of client files, pasted snippets and the Add server form share, so a value
 * the form would mark secret is the value an import moves to the keychain.
 */

const SECRET_NAME =
  /(token|secret|passw(or)?d|(^|[_-])pass($|[_-])|api[_-]?key|(^|[_-])key($|[_-])|private|credential|auth|cookie|session|(^|[_-])pat($|[_-]))/i;
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|x-api-key|api-key)$/i;

/** Whether an env variable (`field: 'env'`) or header name says its value is a secret. */
export function secretLookingName(field: 'env' | 'headers', name: string): boolean {
  return SECRET_NAME.test(name) || (field === 'headers' && SECRET_HEADER.test(name));
}
