/**
 * `outdated` and `update` for backends added from a registry: each one's
 * `source` is compared with the registry's latest version; an update rebuilds
 * the entry from the new server.json with the values the user gave
 * (`source.inputs`) and the secrets it already refers to, shows what changes
 * (version, command line, URL, env and header names), checks it, then saves.
 * A backend installed from an mcpb package gets the new bundle, unpacked
 * beside the old one (install/bundles/updateBundle.ts).
 */
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { parseBackend, type BackendSource } from '../../platform/config/schema.js';
import { checkOrUndo, type InputValues } from '../entries/saveEntry.js';
import { pickOption, resolveEntry, type RegistryAddContext } from './addFromRegistry.js';
import { InputError } from './inputs.js';
import { buildEntry, secretTarget } from './mapping.js';
import type { RegistryEntry } from './registryTypes.js';
import { prepareBundleUpdate, runsFromBundle } from './bundleUpdate.js';
import { backendEntry, backendSources, replaceEntry } from '../entries/runningBackends.js';

/** One backend added from a registry, and the registry's latest version of it. */
export interface OutdatedRow {
  id: string;
  name: string;
  current: string;
  latest?: string;
  /** Why the latest version is unknown (registry unreachable, entry gone or invalid). */
  error?: string;
  offline?: boolean;
}

/** Every backend with a registry source and its latest version. */
export async function listOutdated(
  ctx: Pick<RegistryAddContext, 'configPath' | 'client' | 'signal' | 'backends'>,
): Promise<OutdatedRow[]> {
  const rows: OutdatedRow[] = [];
  for (const [id, source] of await backendSources(ctx)) {
    if (source.registry.startsWith('file://')) continue; // a bundle installed from a file: no registry to ask
    const row: OutdatedRow = { id, name: source.name, current: source.version };
    try {
      const { entry: latest, freshness } = await resolveEntry(ctx.client, source.name, ctx.signal);
      row.latest = latest.version;
      if (freshness.offline) row.offline = true;
    } catch (error) {
      row.error = (error as Error).message;
    }
    rows.push(row);
  }
  return rows;
}

/** One change an update makes. */
export interface EntryChange {
  field: string;
  from: string;
  to: string;
  /** For env and headers: the names the update adds and removes (values may be secret: names only). */
  added?: string[];
  removed?: string[];
}

const show = (value: unknown): string =>
  value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value);

/** What differs between two entries, field by field (env and headers by name: values may be secret). */
export function entryChanges(before: Record<string, unknown>, after: Record<string, unknown>): EntryChange[] {
  const changes: EntryChange[] = [];
  const from = (before['source'] as BackendSource | undefined)?.version;
  const to = (after['source'] as BackendSource | undefined)?.version;
  if (from !== to) changes.push({ field: 'version', from: show(from), to: show(to) });
  for (const field of ['command', 'args', 'url', 'type']) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) {
      changes.push({ field, from: show(before[field]), to: show(after[field]) });
    }
  }
  for (const field of ['env', 'headers']) {
    const a = Object.keys((before[field] ?? {}) as object).sort();
    const b = Object.keys((after[field] ?? {}) as object).sort();
    if (a.join() === b.join()) continue;
    changes.push({
      field,
      from: a.join(', ') || '(none)',
      to: b.join(', ') || '(none)',
      added: b.filter((name) => !a.includes(name)),
      removed: a.filter((name) => !b.includes(name)),
    });
  }
  return changes;
}

/** What an update did (or would do, with `dryRun`). */
export interface UpdateOutcome {
  id: string;
  from: string;
  to: string;
  changes: EntryChange[];
  applied: boolean;
}

/**
 * A backend installed from the entry's mcpb package (install/bundles/updateBundle.ts):
 * the new version unpacked beside the old, checked by starting it, saved; the
 * old folder removed only then.
 */
async function updateBundleBackend(
  ctx: RegistryAddContext,
  id: string,
  current: Record<string, unknown>,
  latest: RegistryEntry & { valid: true },
  index: number,
  options: { dryRun?: boolean; skipCheck?: boolean },
): Promise<UpdateOutcome> {
  const from = (current['source'] as BackendSource).version;
  const outcome: UpdateOutcome = { id, from, to: latest.version, changes: [], applied: false };
  if (from === latest.version) return outcome;
  const update = await prepareBundleUpdate(ctx, id, current, latest, index);
  outcome.changes = entryChanges(current, update.next);
  const parsed = parseBackend(id, update.next);
  if (options.dryRun || !parsed.backend) await update.discard();
  if (options.dryRun) return outcome;
  if (!parsed.backend) {
    throw new SwitchboardError(
      ErrorCode.ConfigInvalid,
      parsed.problems.map((p) => `${p.path}: ${p.message}`).join('; '),
    );
  }
  await update.unpack();
  try {
    if (!options.skipCheck) await checkOrUndo(ctx, parsed.backend, update.discard);
    await replaceEntry(ctx, id, update.next);
  } catch (error) {
    await update.discard();
    throw error;
  }
  await update.removeOld();
  return { ...outcome, applied: true };
}

/** Updates backend `id` to the registry's latest version (see the module comment). */
export async function updateFromRegistry(
  ctx: RegistryAddContext,
  id: string,
  options: { dryRun?: boolean; skipCheck?: boolean } = {},
): Promise<UpdateOutcome> {
  const current = await backendEntry(ctx, id);
  const source = current?.['source'] as BackendSource | undefined;
  if (!current || !source) {
    throw new SwitchboardError(ErrorCode.UnknownBackend, `${id} is not a backend added from a registry`);
  }
  if (source.registry.startsWith('file://')) {
    throw new SwitchboardError(
      ErrorCode.NotSupported,
      `${id} was installed from ${source.registry}: add the new bundle instead`,
    );
  }
  const { entry: latest } = await resolveEntry(ctx.client, source.name, ctx.signal);
  const server = latest.server;
  const isRemote = 'url' in current && !('launch' in current); // a launched package is a package
  const bundleIndex = (server.packages ?? []).findIndex((pkg) => pkg.registryType === 'mcpb');
  if (runsFromBundle(current, ctx.stateDir) && bundleIndex >= 0) {
    return updateBundleBackend(ctx, id, current, latest, bundleIndex, options);
  }
  const option = pickOption(server, isRemote && (server.remotes?.length ?? 0) > 0 ? { remote: 0 } : undefined);
  // Secret fields keep what the entry already refers to (keychain name or ${VAR}).
  const values: InputValues = { ...(source.inputs ?? {}) };
  const keptSecrets = new Map<string, unknown>();
  for (const field of option.fields.filter((f) => f.secret)) {
    const map = secretTarget(structuredClone(current), field.kind === 'header' ? 'headers' : 'env');
    if (map[field.name] !== undefined) {
      keptSecrets.set(field.name, map[field.name]);
      values[field.key] = 'kept';
    }
  }
  let built;
  try {
    built = buildEntry(server, option.choice, values);
  } catch (error) {
    if (error instanceof InputError) {
      throw new SwitchboardError(ErrorCode.InputInvalid, `${latest.version} needs a new value: ${error.message}`, {
        key: error.key,
      });
    }
    throw error;
  }
  for (const secret of built.secrets) {
    const kept = keptSecrets.get(secret.name);
    if (kept === undefined) {
      throw new SwitchboardError(
        ErrorCode.InputInvalid,
        `${latest.version} needs a new secret ${secret.name}: add it again`,
      );
    }
    secretTarget(built.entry, secret.field)[secret.name] = kept;
  }
  // Our own options (prefix, enabled, policy-related) stay as the user set them.
  const next: Record<string, unknown> = { ...current, ...built.entry };
  for (const field of ['env', 'headers', 'args', 'url', 'type', 'command', 'launch'])
    if (!(field in built.entry)) delete next[field];
  next['source'] = {
    registry: latest.registry,
    name: latest.name,
    version: latest.version,
    inputs: source.inputs ?? {},
  };
  const changes = entryChanges(current, next);
  const outcome: UpdateOutcome = { id, from: source.version, to: latest.version, changes, applied: false };
  if (options.dryRun || changes.length === 0) return outcome;
  const parsed = parseBackend(id, next);
  if (!parsed.backend) {
    throw new SwitchboardError(
      ErrorCode.ConfigInvalid,
      parsed.problems.map((p) => `${p.path}: ${p.message}`).join('; '),
    );
  }
  if (!options.skipCheck) await checkOrUndo(ctx, parsed.backend, async () => undefined);
  await replaceEntry(ctx, id, next);
  return { ...outcome, applied: true };
}
