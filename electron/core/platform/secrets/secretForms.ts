/**
 * Removing secret values from text and JSON: each secret's forms (its
 * variants, as given and JSON-escaped) and the well-known token shapes become
 * `[redacted]`. Used by the audit log's lines, log output and everything the
 * CLI prints (redaction.ts).
 */
import { secretVariants, TOKEN_SHAPES } from './secretVariants.js';

/** What every occurrence of a secret becomes. */
export const REDACTED = '[redacted]';

/**
 * Shorter values are not treated as secrets: a header value such as `1` or
 * `json` would match ordinary text and mangle every entry, and is no credential.
 */
export const MIN_SECRET_LENGTH = 4;

/**
 * The strings to remove: each secret and its variants (the credential after
 * `Bearer `, a decoded Basic credential, an OAuth token set's tokens: see
 * secretVariants.ts), as given and as they appear inside JSON text (escaped),
 * deduplicated, longest first so a secret that contains another is removed whole.
 */
export function secretForms(values: readonly unknown[]): string[] {
  const forms = new Set<string>();
  for (const value of values) {
    if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) continue;
    for (const variant of secretVariants(value)) {
      if (variant.length < MIN_SECRET_LENGTH) continue;
      forms.add(variant);
      forms.add(JSON.stringify(variant).slice(1, -1));
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of every secret form in `text`, and every well-known token shape. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return out.replace(TOKEN_SHAPES, REDACTED);
}

/**
 * `secretForms` of `values()`, recomputed only when that array changes: the
 * callers' value lists are cached (the same array until a secret changes), so
 * a burst of responses or entries does not rebuild the forms each time.
 */
export function cachedSecretForms(values: () => readonly unknown[]): () => string[] {
  let last: readonly unknown[] | undefined;
  let forms: string[] = [];
  return () => {
    const current = values();
    if (current !== last) {
      forms = secretForms(current);
      last = current;
    }
    return forms;
  };
}

/** A function that redacts every known secret value (`values()`) in a JSON value, deeply. */
export function secretRedactor(values: () => readonly unknown[]): (value: unknown) => unknown {
  const forms = cachedSecretForms(values);
  // Always walked, even with no known secret: token shapes are redacted regardless.
  return (value) => redactDeep(value, forms());
}

/** Redacts every string and key of a plain JSON value, which keeps it valid JSON. */
export function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [redactText(key, secrets), redactDeep(item, secrets)]),
    );
  }
  return value;
}
