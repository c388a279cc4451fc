/**
 * Updating a backend installed from a registry entry's mcpb package: the new
 * version's bundle is downloaded and its fileSha256 checked before anything
 * reads it, the entry rebuilt from its manifest with the values the user gave
 * (`source.inputs`) and the secrets the entry already refers to, and unpacked
 * into a folder of its own (`bundles/<id>-<version>`) beside the one in use.
 * The caller checks it by starting it and saves it; only then is the old
 * folder removed (a failed update leaves the old one as it was).
 */
import { rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import type { BackendSource } from '../../platform/config/schema.js';
import type { AddContext, InputValues } from '../entries/saveEntry.js';
import type { RegistryEntry } from './registryTypes.js';
import { bundleCommand, userConfigValues } from '../bundles/bundleEntry.js';
import { downloadBundle } from '../bundles/downloadBundle.js';
import { readBundle } from '../bundles/installBundle.js';
import { sweepInstallLeftovers } from '../bundles/installLeftovers.js';
import { unpackInto } from '../bundles/unpackBundle.js';

/** A prepared update: the new entry, and the steps that apply or drop it. */
export interface BundleUpdate {
  next: Record<string, unknown>;
  /** Unpacks the new version into its folder. */
  unpack(): Promise<void>;
  /** Removes the new folder and the downloaded file (the update failed or was not applied: call it then). */
  discard(): Promise<void>;
  /** Removes the old folder (once the new version runs). */
  removeOld(): Promise<void>;
}

/** Whether `entry` runs from a bundle folder under `stateDir` (installed from a bundle). */
export function runsFromBundle(entry: Record<string, unknown>, stateDir: string | undefined): boolean {
  const cwd = entry['cwd'];
  return stateDir !== undefined && typeof cwd === 'string' && dirname(cwd) === join(stateDir, 'bundles');
}

/** Downloads and reads package `index` of `latest` and builds the entry that replaces `current`. */
export async function prepareBundleUpdate(
  ctx: AddContext,
  id: string,
  current: Record<string, unknown>,
  latest: RegistryEntry & { valid: true },
  index: number,
): Promise<BundleUpdate> {
  const pkg = latest.server.packages?.[index];
  const stateDir = ctx.stateDir;
  if (!pkg?.fileSha256 || !stateDir) {
    throw new SwitchboardError(ErrorCode.NotSupported, `${latest.name}: cannot install this bundle here`);
  }
  await sweepInstallLeftovers(stateDir);
  const file = await downloadBundle(pkg.identifier, pkg.fileSha256, join(stateDir, 'downloads'), {
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
  let bundle;
  try {
    bundle = await readBundle(file);
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  // The downloaded file stays until it is unpacked or the update dropped (unpacking streams from it).
  const { archive, manifest } = bundle;
  const dropFile = () => rm(file, { force: true });
  const source = current['source'] as BackendSource;
  const values: InputValues = { ...(source.inputs ?? {}) };
  // Sensitive values were kept (keychain or ${VAR}); the entry's references to them are reused below.
  for (const [key, field] of Object.entries(manifest.user_config ?? {})) {
    if (field.sensitive) values[`var:${key}`] = 'kept';
  }
  const directory = join(stateDir, 'bundles', `${id}-${latest.version.replace(/[^A-Za-z0-9._-]/g, '_')}`);
  let built;
  try {
    built = bundleCommand(manifest, directory, userConfigValues(manifest, values));
  } catch (error) {
    await dropFile();
    throw error;
  }
  const { command, args, env, sensitive } = built;
  const before = (current['env'] ?? {}) as Record<string, unknown>;
  const nextEnv: Record<string, unknown> = { ...env };
  // A sensitive value the entry has no reference for was optional and not given, unless one is required.
  const requiredSecret = Object.values(manifest.user_config ?? {}).some((f) => f.sensitive && f.required);
  for (const secret of sensitive) {
    if (before[secret.name] === undefined && !requiredSecret) continue;
    if (before[secret.name] === undefined) {
      await dropFile();
      throw new SwitchboardError(
        ErrorCode.InputInvalid,
        `${latest.version} needs a new secret ${secret.name}: add it again`,
      );
    }
    nextEnv[secret.name] = before[secret.name];
  }
  const next: Record<string, unknown> = {
    ...current,
    command,
    args,
    cwd: directory,
    description: manifest.description,
  };
  if (Object.keys(nextEnv).length > 0) next['env'] = nextEnv;
  else delete next['env'];
  next['source'] = {
    registry: latest.registry,
    name: latest.name,
    version: latest.version,
    ...(source.inputs ? { inputs: source.inputs } : {}),
  };
  const old = current['cwd'] as string;
  return {
    next,
    unpack: async () => {
      try {
        await unpackInto(archive, directory, ctx.signal ? { signal: ctx.signal } : {});
      } finally {
        await dropFile();
      }
    },
    discard: async () => {
      await dropFile();
      await rm(directory, { recursive: true, force: true });
    },
    removeOld: async () => {
      if (old !== directory && basename(dirname(old)) === 'bundles') await rm(old, { recursive: true, force: true });
    },
  };
}
