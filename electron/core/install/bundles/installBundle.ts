/**
 * Installing a .mcpb / .dxt bundle (a zip with manifest.json at its root):
 * the manifest is validated, what it asks for (`user_config`) filled from the
 * user's values (sensitive ones to the keychain; without one, where the user
 * chooses: install/registry/secretChoice.ts), the
 * files unpacked into `<state dir>/bundles/<id>`, and `server.mcp_config` run
 * with `${__dirname}`, `${user_config.X}`, `${HOME}` and `${/}` substituted.
 * Unpacking goes to a temporary folder renamed at the end; a bad bundle or a
 * failed check leaves nothing behind.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import type JSZip from 'jszip';
import { lazyRequire } from '../../platform/env/lazyRequire.js';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { BACKEND_ID_PATTERN, parseBackend } from '../../platform/config/schema.js';
import { findCommand, missingRuntimeMessage } from '../../platform/env/findCommand.js';
import { checkOrUndo, saveNewEntry, type AddContext, type InputValues } from '../entries/saveEntry.js';
import { backendIdFromName, takenIds } from '../entries/runningBackends.js';
import { secretChoiceNeeded } from '../entries/secretChoice.js';
import { validateManifest, type BundleManifest } from './bundleManifest.js';
import { bundleCommand, bundleGrants, plainUserConfig, userConfigValues } from './bundleEntry.js';
import { withDefaultSandbox } from '../clientApps/sandboxDefault.js';

/** jszip, loaded with the first bundle read (not on every start). */
const jszip = lazyRequire<typeof JSZip>('jszip');

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
export async function readBundle(path: string): Promise<{ zip: JSZip; manifest: BundleManifest }> {
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
    zip = await jszip().loadAsync(bytes);
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

/** Unpacks beside `directory` and renames once complete, so a failure leaves no half-written folder. */
export async function unpackInto(zip: JSZip, directory: string): Promise<void> {
  const temp = `${directory}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await mkdir(temp, { recursive: true });
    await unpack(zip, temp);
    await rm(directory, { recursive: true, force: true });
    await rename(temp, directory);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
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
  ctx: AddContext,
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
  const { command, args, env: plainEnv, sensitive } = bundleCommand(manifest, directory, config);
  // Sandboxed by default: the folders the user gave it may be written, the files read.
  const entry = withDefaultSandbox({ command, args, cwd: directory }, bundleGrants(manifest, config));
  const env: Record<string, unknown> = { ...plainEnv };
  // No keychain and no choice made yet: ask, as for registry entries and pasted snippets, before anything is written.
  if (ctx.askSecretStorage && sensitive.length > 0) throw await secretChoiceNeeded(id, sensitive, ctx.environment);
  const saves: (() => Promise<void>)[] = [];
  const secrets: { field: string; reference: string }[] = [];
  for (const secret of sensitive) {
    const kept = await ctx.sink.keep({ backendId: id, ...secret });
    env[secret.name] = kept.replacement;
    if (kept.save) saves.push(kept.save);
    secrets.push({ field: `env.${secret.name}`, reference: kept.reference });
  }
  if (Object.keys(env).length > 0) entry['env'] = env;
  entry['description'] = manifest.description;
  // From a registry: the values an update rebuilds the entry with (sensitive ones stay where they were kept).
  const inputs = options.source ? plainUserConfig(manifest, options.values) : {};
  entry['source'] = {
    ...(options.source ?? { registry: `file://${resolve(path)}`, name: manifest.name, version: manifest.version }),
    ...(Object.keys(inputs).length > 0 ? { inputs } : {}),
  };
  if (!isAbsolute(command) && !(await findCommand(command, ctx.environment))) {
    throw new SwitchboardError(ErrorCode.RuntimeMissing, missingRuntimeMessage(command, ctx.environment), { command });
  }
  const parsed = parseBackend(id, entry);
  if (!parsed.backend) invalid('server.mcp_config', parsed.problems.map((p) => `${p.path}: ${p.message}`).join('; '));
  const undo = async (): Promise<void> => {
    await rm(directory, { recursive: true, force: true });
    for (const s of secrets) {
      if (ctx.secrets && s.reference.startsWith('keychain:')) await ctx.secrets.delete(s.reference.slice(9));
    }
  };
  try {
    await unpackInto(zip, directory);
    for (const save of saves) await save();
    const tools = options.skipCheck ? undefined : await checkOrUndo(ctx, parsed.backend, undo);
    await saveNewEntry(ctx, id, entry);
    return { id, manifest, directory, entry, secrets, ...(tools !== undefined ? { tools } : {}) };
  } catch (error) {
    await undo();
    throw error;
  }
}
