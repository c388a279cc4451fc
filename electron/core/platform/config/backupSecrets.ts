/**
 * Backups of config.json must not outlive a user's decision to keep a secret
 * in the keychain. When config.json refers to a secret (`{"secret": NAME}` in
 * a server's env, headers or launch env) where a backup still holds a plain
 * value, that value moved to the keychain (by import, the UI's "move to
 * keychain" or a hand edit), and every backup is rewritten: the value becomes
 * the same reference wherever it stands as a whole env or header value (so a
 * restored backup still works, its secret read from the keychain), and any
 * other copy of it (inside a URL, an argument, a file that does not parse)
 * becomes `[redacted]`. Rewritten rather than deleted: the backups' other
 * content (the servers and policy the user may want back) stays.
 */
import { readFile } from 'node:fs/promises';
import type { JSONPath } from 'jsonc-parser';
import { isSecretReference } from '../secrets/secretStore.js';
import { REDACTED, secretForms } from '../secrets/secretForms.js';
import type { AtomicWriter } from './atomicWriter.js';
import { listBackups } from './configBackups.js';
import { applyPathEdits, diffPaths } from './configPatch.js';

/** A keychain reference in the config, where it stands. */
interface ReferenceAt {
  path: JSONPath;
  name: string;
}

const VARIABLE = /\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}/g;

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Each value map of each server in a config document: env, headers, launch.env, with its path. */
function valueMaps(document: unknown): { path: JSONPath; values: Record<string, unknown> }[] {
  const maps: { path: JSONPath; values: Record<string, unknown> }[] = [];
  const servers = record(record(document)?.['mcpServers']) ?? {};
  for (const [id, server] of Object.entries(servers)) {
    const entry = record(server);
    for (const [field, values] of [
      [['env'], entry?.['env']],
      [['headers'], entry?.['headers']],
      [['launch', 'env'], record(entry?.['launch'])?.['env']],
    ] as const) {
      const map = record(values);
      if (map) maps.push({ path: ['mcpServers', id, ...field], values: map });
    }
  }
  return maps;
}

/** Every keychain reference of a config document. */
function referencesOf(document: unknown): ReferenceAt[] {
  return valueMaps(document).flatMap(({ path, values }) =>
    Object.entries(values).flatMap(([key, value]) =>
      isSecretReference(value) ? [{ path: [...path, key], name: value.secret }] : [],
    ),
  );
}

function valueAt(document: unknown, path: JSONPath): unknown {
  let node: unknown = document;
  for (const key of path) node = record(node)?.[String(key)];
  return node;
}

/** A plain value (not only `${VAR}` references, which are names, not secrets). */
function plainSecret(value: unknown): value is string {
  return typeof value === 'string' && value.replace(VARIABLE, '').trim() !== '';
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The plain values backups hold where the config now refers to a secret: value → secret name. */
function movedValues(references: ReferenceAt[], backups: unknown[]): Map<string, string> {
  const moved = new Map<string, string>();
  for (const backup of backups) {
    for (const { path, name } of references) {
      const value = valueAt(backup, path);
      if (plainSecret(value)) moved.set(value, name);
    }
  }
  return moved;
}

/** A backup's text with each moved value replaced: by its reference as a whole value, else by `[redacted]`. */
function scrubbed(text: string, moved: Map<string, string>): string {
  let out = text;
  const document = parse(text);
  if (document !== undefined) {
    const after = structuredClone(document);
    for (const { values } of valueMaps(after)) {
      for (const [key, value] of Object.entries(values)) {
        const name = typeof value === 'string' ? moved.get(value) : undefined;
        if (name !== undefined) values[key] = { secret: name };
      }
    }
    out = applyPathEdits(text, diffPaths(document, after));
  }
  for (const form of secretForms([...moved.keys()])) out = out.split(form).join(REDACTED);
  return out;
}

/**
 * Rewrites the backups of `configPath` that hold a value the config (`current`,
 * its parsed text) now keeps in the keychain; returns the files rewritten.
 * Call under the config's lock (configLock.ts), as backups are written.
 */
export async function scrubMovedSecrets(
  stateDir: string,
  configPath: string,
  current: unknown,
  writer: AtomicWriter,
): Promise<string[]> {
  const references = referencesOf(current);
  if (references.length === 0) return [];
  const backups = await listBackups(stateDir, configPath);
  const texts = await Promise.all(backups.map((backup) => readFile(backup.path, 'utf8')));
  const moved = movedValues(references, texts.map(parse));
  if (moved.size === 0) return [];
  const rewritten: string[] = [];
  for (const [i, backup] of backups.entries()) {
    const text = texts[i] as string;
    const next = scrubbed(text, moved);
    if (next === text) continue;
    await writer.write(backup.path, next); // a temp file of mode 0600, renamed over the backup
    rewritten.push(backup.path);
  }
  return rewritten;
}
