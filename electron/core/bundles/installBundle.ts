/**
 * Installing a .mcpb / .dxt bundle (a zip with manifest.json at its root):
 * the manifest is validated, what it asks for (`user_config`) filled from the
 * user's values (sensitive ones to the keychain, never config.json), the
 * files unpacked into `<state dir>/bundles/<id>`, and `server.mcp_config` run
 * with `${__dirname}`, `${user_config.X}`, `${HOME}` and `${/}` substituted.
 * Unpacking goes to a temporary folder renamed at the end; a bad bundle or a
 * failed check leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import JSZip from 'jszip';
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import { BACKEND_ID_PATTERN, parseBackend } from '../config/schema.js';
import { findCommand, missingRuntimeMessage } from '../env/findCommand.js';
import { checkOrUndo, saveNewEntry, type RegistryAddContext } from '../registry/saveEntry.js';
import { backendIdFromName, takenIds } from '../registry/runningBackends.js';
import type { InputValues } from '../registry/inputs.js';
import { validateManifest, type BundleManifest, type UserConfigField } from './bundleManifest.js';

/** Bundles larger than this are refused before they are read. */
export const MAX_BUNDLE_BYTES = 256 * 1024 * 1024;

/** What an install did. */
export interface BundleOutcome {
  id: string;
  manifest: BundleManifest;
  directory: string;
  entry: Record<string, unknown>;
  secrets: { field: string; reference: string }[];
  tools?: number;
}

function invalid(field: string, message: string): never {
  throw new SwitchboardError(ErrorCode.BundleInvalid, `manifest.json: ${field}: ${message}; not installed`, { field });
}

/** The bundle at `path`, read (see {@link readBundleBytes}). */
async function readBundle(path: string): Promise<{ zip: JSZip; manifest: BundleManifest }> {
  const size = (await stat(path)).size;
  if (size > MAX_BUNDLE_BYTES) invalid('(file)', `${size} bytes is more than ${MAX_BUNDLE_BYTES}`);
  return readBundleBytes(await readFile(path), path);
}

/** A bundle's files and validated manifest, refusing paths that would land outside the folder (zip slip). */
export async function readBundleBytes(
  bytes: Uint8Array,
  label: string,
): Promise<{ zip: JSZip; manifest: BundleManifest }> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (error) {
    throw new SwitchboardError(ErrorCode.BundleInvalid, `${label} is not a zip file (${(error as Error).message})`, {
      field: '(file)',
    });
  }
  for (const name of Object.keys(zip.files)) {
    const clean = normalize(name);
    if (isAbsolute(name) || clean.startsWith(`..${sep}`) || clean === '..') {
      throw new SwitchboardError(ErrorCode.BundleInvalid, `${label}: entry "${name}" points outside the bundle`, {
        field: '(file)',
      });
    }
  }
  const file = zip.file('manifest.json');
  if (!file) invalid('(file)', 'there is no manifest.json at the root of the bundle');
  let json: unknown;
  try {
    json = JSON.parse(await file.async('string'));
  } catch (error) {
    invalid('(file)', `not JSON (${(error as Error).message})`);
  }
  const checked = validateManifest(json);
  if (!checked.ok) invalid(checked.field, checked.message);
  return { zip, manifest: checked.manifest };
}

/** Each user_config value: given, else its default; required ones must be there. */
function userConfigValues(manifest: BundleManifest, values: InputValues): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [key, field] of Object.entries(manifest.user_config ?? {})) {
    const raw = values[`var:${key}`] ?? values[`arg:${key}`];
    const given = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    const fallback =
      field.default === undefined ? [] : Array.isArray(field.default) ? field.default : [String(field.default)];
    const chosen = given.length > 0 ? given : fallback;
    if (chosen.length === 0 && field.required) {
      throw new SwitchboardError(
        ErrorCode.InputInvalid,
        `user_config.${key} (${field.title}) is required: pass --arg ${key}=...`,
        { key: `var:${key}` },
      );
    }
    if (!field.multiple && chosen.length > 1) {
      throw new SwitchboardError(ErrorCode.InputInvalid, `user_config.${key} takes one value`, { key: `var:${key}` });
    }
    checkType(key, field, chosen);
    out.set(key, chosen);
  }
  return out;
}

function checkType(key: string, field: UserConfigField, values: string[]): void {
  for (const value of values) {
    if (field.type === 'number') {
      const n = Number(value);
      const bad =
        !Number.isFinite(n) || (field.min !== undefined && n < field.min) || (field.max !== undefined && n > field.max);
      if (bad) {
        throw new SwitchboardError(ErrorCode.InputInvalid, `user_config.${key} must be a number in range`, {
          key: `var:${key}`,
        });
      }
    }
    if (field.type === 'boolean' && value !== 'true' && value !== 'false') {
      throw new SwitchboardError(ErrorCode.InputInvalid, `user_config.${key} must be true or false`, {
        key: `var:${key}`,
      });
    }
  }
}

interface Substituted {
  words: string[];
  secret: boolean;
}

/** `${__dirname}`, `${HOME}`, `${/}`/`${pathSeparator}` and `${user_config.X}` in one value (MCPB manifest spec). */
function substitute(
  text: string,
  directory: string,
  config: Map<string, string[]>,
  manifest: BundleManifest,
): Substituted {
  const whole = /^\$\{user_config\.([A-Za-z0-9_-]+)\}$/.exec(text);
  if (whole && manifest.user_config?.[whole[1]!]?.multiple) {
    // A multiple value alone in an argument becomes one argument per value.
    return { words: config.get(whole[1]!) ?? [], secret: manifest.user_config[whole[1]!]!.sensitive === true };
  }
  let secret = false;
  const out = text.replace(/\$\{([^}]+)\}/g, (match, name: string) => {
    if (name === '__dirname') return directory;
    if (name === 'HOME') return homedir();
    if (name === '/' || name === 'pathSeparator') return sep;
    const key = /^user_config\.(.+)$/.exec(name)?.[1];
    if (key === undefined || !manifest.user_config?.[key]) return match;
    if (manifest.user_config[key].sensitive) secret = true;
    return (config.get(key) ?? []).join(',');
  });
  return { words: [out], secret };
}

async function unpack(zip: JSZip, target: string): Promise<void> {
  for (const [name, file] of Object.entries(zip.files)) {
    const path = resolve(target, name);
    if (file.dir) {
      await mkdir(path, { recursive: true });
      continue;
    }
    await mkdir(dirname(path), { recursive: true });
    const mode = (file.unixPermissions as number | null) ?? 0o644;
    await writeFile(path, await file.async('nodebuffer'), { mode: mode & 0o777 || 0o644 });
  }
}

/** Installs the bundle at `path` as a backend (see the module comment). */
export async function installBundle(
  ctx: RegistryAddContext,
  path: string,
  options: {
    stateDir: string;
    id?: string;
    values: InputValues;
    skipCheck?: boolean;
    /** Where it came from, when not a local file (a registry entry's mcpb package). */
    source?: { registry: string; name: string; version: string };
  },
): Promise<BundleOutcome> {
  const { zip, manifest } = await readBundle(path);
  const config = userConfigValues(manifest, options.values);
  const taken = await takenIds(ctx);
  if (options.id !== undefined && !BACKEND_ID_PATTERN.test(options.id)) {
    throw new SwitchboardError(ErrorCode.InvalidParams, `invalid backend ID "${options.id}"`);
  }
  if (options.id !== undefined && taken.has(options.id)) {
    throw new SwitchboardError(ErrorCode.DuplicateBackend, `a backend named ${options.id} already exists`);
  }
  const id = options.id ?? backendIdFromName(manifest.name, taken);
  const directory = join(options.stateDir, 'bundles', id);
  const platform = manifest.server.mcp_config.platform_overrides?.[process.platform] ?? {};
  const mcp = { ...manifest.server.mcp_config, ...platform };
  const command = substitute(mcp.command, directory, config, manifest).words[0] ?? mcp.command;
  const args: string[] = [];
  for (const arg of mcp.args ?? []) {
    const result = substitute(arg, directory, config, manifest);
    if (result.secret)
      invalid(
        'server.mcp_config.args',
        'a sensitive user_config value cannot be kept out of config.json on a command line',
      );
    args.push(...result.words);
  }
  const entry: Record<string, unknown> = { command, args, cwd: directory };
  const env: Record<string, unknown> = {};
  const saves: (() => Promise<void>)[] = [];
  const secrets: { field: string; reference: string }[] = [];
  for (const [name, value] of Object.entries(mcp.env ?? {})) {
    const result = substitute(value, directory, config, manifest);
    const text = result.words.join(',');
    if (!result.secret) {
      env[name] = text;
      continue;
    }
    if (text === '') continue; // an optional sensitive value not given: nothing to keep
    const kept = await ctx.sink.keep({ backendId: id, field: 'env', name, value: text });
    env[name] = kept.replacement;
    if (kept.save) saves.push(kept.save);
    secrets.push({ field: `env.${name}`, reference: kept.reference });
  }
  if (Object.keys(env).length > 0) entry['env'] = env;
  entry['description'] = manifest.description;
  entry['source'] = options.source ?? {
    registry: `file://${resolve(path)}`,
    name: manifest.name,
    version: manifest.version,
  };
  if (!isAbsolute(command) && !(await findCommand(command, ctx.environment))) {
    throw new SwitchboardError(ErrorCode.RuntimeMissing, missingRuntimeMessage(command, ctx.environment), { command });
  }
  const parsed = parseBackend(id, entry);
  if (!parsed.backend) invalid('server.mcp_config', parsed.problems.map((p) => `${p.path}: ${p.message}`).join('; '));
  // Unpack beside the target and rename once complete, so a failure leaves no half-written folder.
  const temp = `${directory}.${randomBytes(4).toString('hex')}.tmp`;
  const undo = async (): Promise<void> => {
    await rm(temp, { recursive: true, force: true });
    await rm(directory, { recursive: true, force: true });
    if (ctx.secrets) for (const s of secrets) await ctx.secrets.delete(s.reference.replace(/^keychain:/, ''));
  };
  try {
    await mkdir(temp, { recursive: true });
    await unpack(zip, temp);
    await rm(directory, { recursive: true, force: true });
    await rename(temp, directory);
    for (const save of saves) await save();
    const tools = options.skipCheck ? undefined : await checkOrUndo(ctx, parsed.backend, undo);
    await saveNewEntry(ctx, id, entry);
    return { id, manifest, directory, entry, secrets, ...(tools !== undefined ? { tools } : {}) };
  } catch (error) {
    await undo();
    throw error;
  }
}
