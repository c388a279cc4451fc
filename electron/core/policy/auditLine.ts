/**
 * Turning audit entries into bounded, redacted JSON lines and back. Kept apart
 * from the file handling so every rule about what may reach the disk is in one
 * place: secrets are removed before anything is cut (a cut must never leave
 * the head of a token behind), and no line can outgrow one log file.
 */
import { Buffer } from 'node:buffer';
import { secretVariants, TOKEN_SHAPES } from '../secrets/secretVariants.js';
import type { AuditEntry } from './auditLog.js';

/** What every occurrence of a secret becomes. */
export const REDACTED = '[redacted]';

/**
 * Shorter values are not treated as secrets: a header value such as `1` or
 * `json` would match ordinary text and mangle every entry, and is no credential.
 */
export const MIN_SECRET_LENGTH = 4;

/** Longest client, backend, item, error code or detail text kept, in characters. */
const MAX_TEXT_CHARS = 2048;

/** Size bounds of one line. */
export interface LineLimits {
  /** Serialized size of captured `arguments` and of `result`, each. */
  captureBytes: number;
  /** A whole line, newline included (at most one log file). */
  lineBytes: number;
}

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

/** A value too large to keep: its size and a redacted head of its JSON text. */
function truncated(text: string, secrets: readonly string[], limit: number): unknown {
  const bytes = Buffer.byteLength(text);
  const longest = secrets[0]?.length ?? 0;
  // Redact a little past the cut, then drop that overhang: a secret straddling
  // the cut is removed whole, and a head of one cannot survive at the end.
  let preview = redactText(text.slice(0, limit + longest), secrets);
  if (text.length > limit + longest) preview = preview.slice(0, Math.max(0, preview.length - longest));
  preview = preview.slice(0, limit);
  for (;;) {
    const marker = { $truncated: true, bytes, preview };
    // Re-escaping inside the line can grow the preview; shrink until the marker fits.
    if (preview.length === 0 || Buffer.byteLength(JSON.stringify(marker)) <= limit) return marker;
    preview = preview.slice(0, Math.floor(preview.length * 0.75));
  }
}

/** Captured arguments or result: plain JSON, redacted, at most `limit` bytes serialized. */
function capture(value: unknown, secrets: readonly string[], limit: number): unknown {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    return `[not serializable: ${error instanceof Error ? error.message : String(error)}]`;
  }
  if (text === undefined) return undefined;
  if (text.length <= limit) {
    const plain = redactDeep(JSON.parse(text), secrets);
    const redacted = JSON.stringify(plain);
    if (Buffer.byteLength(redacted) <= limit) return plain;
    text = redacted;
  }
  return truncated(text, secrets, limit);
}

/**
 * One entry as a JSON line (newline included), redacted and bounded, or
 * undefined when even its fixed fields cannot fit in `lineBytes`.
 */
export function toLine(entry: AuditEntry, secrets: readonly string[], limits: LineLimits): string | undefined {
  const text = (value: string, max = MAX_TEXT_CHARS): string => {
    const clean = redactText(String(value), secrets);
    return clean.length > max ? `${clean.slice(0, max)}…[truncated]` : clean;
  };
  const line: Record<string, unknown> = {
    time: String(entry.time),
    client: text(entry.client),
    backend: text(entry.backend),
    kind: entry.kind,
    item: text(entry.item),
    outcome: entry.outcome,
  };
  if (entry.errorCode !== undefined) {
    line['errorCode'] = typeof entry.errorCode === 'number' ? entry.errorCode : text(entry.errorCode);
  }
  line['durationMs'] = Number.isFinite(entry.durationMs) ? entry.durationMs : 0;
  if (entry.arguments !== undefined) line['arguments'] = capture(entry.arguments, secrets, limits.captureBytes);
  if (entry.result !== undefined) line['result'] = capture(entry.result, secrets, limits.captureBytes);
  if (entry.detail !== undefined) line['detail'] = text(entry.detail);
  // Last safety net over the whole line (a secret in a fixed field, or spread
  // across JSON syntax). If it breaks the JSON, queries skip the line: losing
  // the entry is better than keeping the secret.
  const finish = (): string => `${redactText(JSON.stringify(line), secrets)}\n`;
  let out = finish();
  if (Buffer.byteLength(out) <= limits.lineBytes) return out;
  // A small log (tiny maxBytes) cannot hold even bounded captures: keep the facts only.
  for (const key of ['arguments', 'result'] as const) {
    if (line[key] !== undefined) line[key] = { $truncated: true };
  }
  if (entry.detail !== undefined) line['detail'] = text(entry.detail, 64);
  out = finish();
  return Buffer.byteLength(out) <= limits.lineBytes ? out : undefined;
}

/** Parses one line of a log file; undefined for a corrupt, truncated or foreign line. */
export function parseLine(text: string): AuditEntry | undefined {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const entry = value as Record<string, unknown>;
  for (const key of ['time', 'client', 'backend', 'kind', 'item', 'outcome']) {
    if (typeof entry[key] !== 'string') return undefined;
  }
  if (typeof entry['durationMs'] !== 'number') return undefined;
  return value as AuditEntry;
}
