/**
 * Long encoded runs (base64, base64url, hex) in a definition: a way to carry
 * a payload past people and keyword filters. A base64 run is decoded: when
 * it spells readable text, that text is shown in the message and the finding
 * is high, since a tool description has no reason to hide prose; opaque
 * base64 is medium and long hex (hashes, keys) low.
 */
import type { RuleHit, ScanRuleCheck } from './rule.js';

/** Shortest base64 run considered, in characters (hex: 64, in HEX_RUN). */
const MIN_BASE64 = 40;

const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{40,}={0,2}(?![A-Za-z0-9+/_-])/g;
const HEX_RUN = /(?<![0-9A-Za-z])(?:0x)?[0-9a-fA-F]{64,}(?![0-9A-Za-z])/g;

/** Encoded blobs. */
export const encodedBlob: ScanRuleCheck = {
  rule: 'encoded-blob',
  check(field) {
    const hits: RuleHit[] = [];
    const text = field.text;
    for (const match of text.matchAll(HEX_RUN)) {
      const start = match.index ?? 0;
      hits.push({ severity: 'low', start, end: start + match[0].length, message: `${match[0].length} hex digits` });
    }
    for (const match of text.matchAll(BASE64_RUN)) {
      const run = match[0];
      if (!looksEncoded(run)) continue;
      const start = match.index ?? 0;
      const decoded = readableDecoding(run);
      hits.push(
        decoded === undefined
          ? { severity: 'medium', start, end: start + run.length, message: `${run.length} characters of base64` }
          : {
              severity: 'high',
              start,
              end: start + run.length,
              message: `base64 that decodes to text: "${decoded.length > 120 ? `${decoded.slice(0, 119)}…` : decoded}"`,
            },
      );
    }
    return hits;
  },
};

/**
 * Whether a run of base64 letters is an encoding rather than a word, a path
 * or an identifier: it mixes cases and digits, is not all hex (hex has its
 * own rule), and is not a snake_case / kebab-case / dotted identifier.
 */
function looksEncoded(run: string): boolean {
  if (run.length < MIN_BASE64 || /^(?:0x)?[0-9a-fA-F]+$/.test(run)) return false;
  const body = run.replace(/=+$/, '');
  if (/[_-]/.test(body) && /^[A-Za-z]+(?:[_-][A-Za-z0-9]+)+$/.test(body)) return false;
  const upper = (body.match(/[A-Z]/g) ?? []).length;
  const lower = (body.match(/[a-z]/g) ?? []).length;
  const digits = (body.match(/[0-9]/g) ?? []).length;
  if (upper < 4 || lower < 4 || digits + (body.match(/[+/]/g) ?? []).length < 2) return false;
  // Runs of words in CamelCase ("ThisIsAVeryLongIdentifierName") change case at word starts only.
  const caseChanges = (body.match(/[a-z][A-Z]|[A-Z]{2}[a-z]/g) ?? []).length;
  return caseChanges >= body.length / 12 || digits >= 3;
}

/** The decoded text when `run` is base64 of mostly printable ASCII or UTF-8 prose; otherwise undefined. */
function readableDecoding(run: string): string | undefined {
  const normalized = run.replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Buffer.from(normalized, 'base64');
  if (bytes.length < 20) return undefined;
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD')) return undefined;
  const printable = [...text].filter((char) => /[\p{L}\p{N}\p{P}\p{Zs}\n\t]/u.test(char)).length;
  const letters = (text.match(/\p{L}/gu) ?? []).length;
  const spaces = (text.match(/\s/g) ?? []).length;
  return printable / [...text].length > 0.95 && letters / [...text].length > 0.5 && spaces >= 2 ? text : undefined;
}
