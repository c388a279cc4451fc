/**
 * Installing a .mcpb / .dxt bundle (a zip with manifest.json at its root):
 * the manifest is validated, what it asks for (`user_config`) filled from the
 * user's values (sensitive ones to the keychain; without one, where the user
 * chooses: install/registry/secretChoice.ts), the
 * files unpacked into `<state dir>/bundles/<id>`, and `server.mcp_config` run
 * with `${__dirname}`, `${user_config.X}`, `${HOME}` and `${/}` substituted.
 * Every entry is checked before anything is unpacked (bundleLimits.ts: no
 * `..`, absolute or link entries; bounded sizes and count), then streamed to
 * a temporary folder renamed at the end (unpackBundle.ts); a bad bundle or a
 * failed check leaves nothing behind.
 */
import { rm, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { BACKEND_ID_PATTERN, parseBackend } from '../../platform/config/schema.js';
import { findCommand, missingRuntimeMessage } from '../../platform/env/findCommand.js';
import { checkOrUndo, saveNewEntry, type AddContext, type InputValues } from '../entries/saveEntry.js';
import { backendIdFromName, takenIds } from '../entries/runningBackends.js';
import { secretChoiceNeeded } from '../entries/secretChoice.js';
import { validateManifest, type BundleManifest } from './bundleManifest.js';
import { bundleCommand, bundleGrants, plainUserConfig, userConfigValues } from './bundleEntry.js';
import { refuseWithoutSandbox, withDefaultSandbox } from '../clientApps/sandboxDefault.js';
import { entryText, walkBundle, type BundleSource } from './bundleArchive.js';
import { BUNDLE_LIMITS } from './bundleLimits.js';
import { sweepInstallLeftovers } from './installLeftovers.js';
import { unpackInto, type BundleArchive } from './unpackBundle.js';

/** Bundles larger than this (compressed) are refused before they are read. */
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

/** A bundle read and checked: where its bytes are, and its validated manifest. */
export interface ReadBundle {
  archive: BundleArchive;
  manifest: BundleManifest;
}

function invalid(field: string, message: string): never {
  throw new SwitchboardError(ErrorCode.BundleInvalid, `manifest.json: ${field}: ${message}; not installed`, { field });
}

/**
 * The bundle at `path`, read and checked (see {@link inspectBundle}); its files stay on disk.
 * `label` names it in errors (an upload's own file name, not the temporary copy in the state folder).
 */
export async function readBundle(path: string, label = path): Promise<ReadBundle> {
  const size = (await stat(path)).size;
  if (size > MAX_BUNDLE_BYTES) invalid('(file)', `${size} bytes is more than ${MAX_BUNDLE_BYTES}`);
  return inspectBundle({ path }, label);
}

/** An uploaded bundle's bytes, read and checked (see {@link inspectBundle}). */
export function readBundleBytes(bytes: Buffer, label: string): Promise<ReadBundle> {
  return inspectBundle({ bytes }, label);
}

/**
 * Every entry of the bundle checked before anything is unpacked (names, kinds,
 * declared sizes and count: bundleLimits.ts), and its manifest read and validated.
 */
async function inspectBundle(source: BundleSource, label: string): Promise<ReadBundle> {
  let text: string | undefined;
  await walkBundle(source, label, BUNDLE_LIMITS, async (entry) => {
    if (entry.name === 'manifest.json' && entry.kind === 'file') {
      text = await entryText(entry, label, BUNDLE_LIMITS.maxManifestBytes);
    }
  });
  if (text === undefined) invalid('(file)', 'there is no manifest.json at the root of the bundle');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    invalid('(file)', `not JSON (${(error as Error).message})`);
  }
  const checked = validateManifest(json);
  if (!checked.ok) invalid(checked.field, checked.message);
  return { archive: { source, label }, manifest: checked.manifest };
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
    /** Run it with the user's rights, by choice (recorded as `"sandbox": false`). */
    unsandboxed?: boolean;
    /** Where it came from, when not a local file (a registry entry's mcpb package). */
    source?: { registry: string; name: string; version: string };
    /** What errors call the bundle (an upload's file name as the user chose it); `path` by default. */
    label?: string;
  },
): Promise<BundleOutcome> {
  // What an install killed earlier (SIGKILL) left behind goes first.
  await sweepInstallLeftovers(options.stateDir);
  const { archive, manifest } = await readBundle(path, options.label);
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
  const entry = withDefaultSandbox({ command, args, cwd: directory }, bundleGrants(manifest, config), {
    unsandboxed: options.unsandboxed ?? false,
  });
  // Where its sandbox cannot run, the add says what to install, before anything is unpacked or kept.
  refuseWithoutSandbox(id, entry, ctx.environment);
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
    await unpackInto(archive, directory, ctx.signal ? { signal: ctx.signal } : {});
    for (const save of saves) await save();
    const tools = options.skipCheck ? undefined : await checkOrUndo(ctx, parsed.backend, undo);
    await saveNewEntry(ctx, id, entry);
    return { id, manifest, directory, entry, secrets, ...(tools !== undefined ? { tools } : {}) };
  } catch (error) {
    await undo();
    throw error;
  }
}
