/**
 * Turning audit entries into bounded, redacted JSON lines and back. Kept apart
 * from the file handling so every rule about what may reach the disk is in one
 * place: secrets are removed before anything is cut (a cut must never leave
 * the head of a token behind), and no line can outgrow one log file.
 */
import { Buffer } from 'node:buffer';
import { redactDeep, redactText } from '../../platform/secrets/secretForms.js';
import type { AuditEntry } from './auditEntry.js';

/** Longest client, backend, item, error code or detail text kept, in characters. */
const MAX_TEXT_CHARS = 2048;

/** Size bounds of one line. */
export interface LineLimits {
  /** Serialized size of captured `arguments` and of `result`, each. */
  captureBytes: number;
  /** A whole line, newline included (at most one log file). */
  lineBytes: number;
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
    ...(entry.exposed !== undefined ? { exposed: text(entry.exposed) } : {}),
    outcome: entry.outcome,
  };
  if (entry.errorCode !== undefined) {
    line['errorCode'] = typeof entry.errorCode === 'number' ? entry.errorCode : text(entry.errorCode);
  }
  line['durationMs'] = Number.isFinite(entry.durationMs) ? entry.durationMs : 0;
  if (entry.arguments !== undefined) line['arguments'] = capture(entry.arguments, secrets, limits.captureBytes);
  if (entry.result !== undefined) line['result'] = capture(entry.result, secrets, limits.captureBytes);
  if (entry.detail !== undefined) line['detail'] = text(entry.detail);
  if (entry.decision !== undefined) line['decision'] = { rule: entry.decision.rule, source: entry.decision.source };
  if (entry.run !== undefined) line['run'] = text(entry.run);
  if (entry.principal !== undefined) {
    const { subject, email, issuer } = entry.principal;
    line['principal'] = {
      subject: text(subject),
      ...(email !== undefined ? { email: text(email) } : {}),
      ...(issuer !== undefined ? { issuer: text(issuer) } : {}),
    };
  }
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
