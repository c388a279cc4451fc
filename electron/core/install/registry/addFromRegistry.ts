/**
 * Adding a server from an MCP registry, and updating one added that way:
 * the entry is read (validated against the official schema; an invalid one
 * is never installed), one of its packages or remotes chosen, the user's
 * values filled in, the runtime command looked for on PATH, secrets sent to
 * the keychain (or `${VAR}` references without one), the result checked by
 * connecting to it, and only then saved with `source: {registry, name, version}`.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { downloadBundle } from '../bundles/downloadBundle.js';
import { installBundle } from '../bundles/installBundle.js';
import { BACKEND_ID_PATTERN, parseBackend } from '../../platform/config/schema.js';
import { backendIdFromName, takenIds } from '../entries/runningBackends.js';
import { requireRuntime } from '../../platform/env/findCommand.js';
import { checkOrUndo, saveNewEntry, type AddContext, type InputValues } from '../entries/saveEntry.js';
import { secretChoiceNeeded } from '../entries/secretChoice.js';
import { InputError } from './inputs.js';
import {
  buildEntry,
  filepathValues,
  optionsOf,
  secretTarget,
  type BuiltEntry,
  type Choice,
  type Option,
} from './mapping.js';
import { refuseWithoutSandbox, withDefaultSandbox, type SandboxChoice } from '../clientApps/sandboxDefault.js';
import { parseRegistryRef, type RegistryClient } from './registryClient.js';
import type { Freshness, RegistryEntry, ServerJson } from './registryTypes.js';

/** What adding from the registry needs: what any add needs, and the registry client. */
export interface RegistryAddContext extends AddContext {
  client: RegistryClient;
}

/** What to add. */
export interface RegistryAddRequest {
  /** `name[@version]`. */
  ref: string;
  id?: string;
  values: InputValues;
  /** Which package or remote (default: the first one Switchboard can run). */
  choice?: Choice;
  /** Skip the connect-and-list check (a server that is not reachable yet). */
  skipCheck?: boolean;
  /** Run it with the user's rights, by choice (recorded as `"sandbox": false`). */
  unsandboxed?: boolean;
}

/** What was added. */
export interface RegistryAddOutcome {
  id: string;
  entry: Record<string, unknown>;
  option: Option;
  secrets: { field: string; reference: string }[];
  freshness: Freshness;
  tools?: number;
  /** The server answered 401: saved, and the user's sign-in (OAuth) comes next. */
  needsAuthorization?: boolean;
}

function fail(code: ErrorCode, message: string, data?: Record<string, unknown>): never {
  throw new SwitchboardError(code, message, data);
}

/** The entry `ref` names, valid, or a clear error. */
export async function resolveEntry(
  client: RegistryClient,
  ref: string,
  signal?: AbortSignal,
): Promise<{ entry: RegistryEntry & { valid: true }; freshness: Freshness }> {
  const { name, version } = parseRegistryRef(ref);
  let found;
  try {
    found = await client.get(name, version, signal);
  } catch (error) {
    const status = (error as { status?: number }).status;
    fail(status === 404 ? ErrorCode.RegistryEntryInvalid : ErrorCode.RegistryUnavailable, (error as Error).message);
  }
  const { entry } = found;
  if (!entry.valid) {
    fail(
      ErrorCode.RegistryEntryInvalid,
      `${entry.name}@${entry.version} is not a valid server.json (${entry.reason}); not installed`,
      {
        reason: entry.reason,
      },
    );
  }
  return { entry, freshness: found.freshness };
}

/** The option `choice` names, else the first one Switchboard can run. */
export function pickOption(server: ServerJson, choice: Choice | undefined): Option {
  const options = optionsOf(server);
  const option = choice
    ? options.find((o) => JSON.stringify(o.choice) === JSON.stringify(choice))
    : (options.find((o) => !o.unsupported) ?? options[0]);
  if (!option) fail(ErrorCode.RegistryEntryInvalid, `${server.name} has no package or remote to run`);
  if (option.unsupported) fail(ErrorCode.NotSupported, `${server.name}: ${option.unsupported}`);
  return option;
}

/** The non-secret values, kept in `source.inputs` so an update can rebuild the entry. */
function plainInputs(option: Option, values: InputValues): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const field of option.fields) {
    const value = values[field.key];
    if (!field.secret && value !== undefined) out[field.key] = value;
  }
  return out;
}

/**
 * The entry a new server of `option` gets with `values` (secrets apart), sandboxed by
 * default: the paths given as its `filepath` inputs are what it may write. Throws {@link InputError}.
 */
export function newRegistryEntry(
  server: ServerJson,
  option: Option,
  values: InputValues,
  choice: SandboxChoice = {},
): BuiltEntry {
  const built = buildEntry(server, option.choice, values);
  const grants = { write: filepathValues(server, option.choice, values) };
  return { ...built, entry: withDefaultSandbox(built.entry, grants, choice) };
}

/** Builds the entry (secrets through the sink), or throws naming the input. */
async function composeEntry(
  ctx: RegistryAddContext,
  id: string,
  registryEntry: RegistryEntry & { valid: true },
  option: Option,
  values: InputValues,
  choice: SandboxChoice,
) {
  let built;
  try {
    built = newRegistryEntry(registryEntry.server, option, values, choice);
  } catch (error) {
    if (error instanceof InputError) fail(ErrorCode.InputInvalid, error.message, { key: error.key });
    throw error;
  }
  await requireRuntime(built.runtime, ctx.environment);
  // Where its sandbox cannot run, the add says what to install, before any secret is kept.
  refuseWithoutSandbox(id, built.entry, ctx.environment);
  if (ctx.askSecretStorage && built.secrets.length > 0)
    throw await secretChoiceNeeded(id, built.secrets, ctx.environment);
  const entry = built.entry;
  const saves: (() => Promise<void>)[] = [];
  const secrets: { field: string; reference: string }[] = [];
  for (const secret of built.secrets) {
    const kept = await ctx.sink.keep({ backendId: id, field: secret.field, name: secret.name, value: secret.value });
    secretTarget(entry, secret.field)[secret.name] = kept.replacement;
    if (kept.save) saves.push(kept.save);
    secrets.push({ field: `${secret.field}.${secret.name}`, reference: kept.reference });
  }
  entry['source'] = {
    registry: registryEntry.registry,
    name: registryEntry.name,
    version: registryEntry.version,
    inputs: plainInputs(option, values),
  };
  const parsed = parseBackend(id, entry);
  if (!parsed.backend) {
    fail(ErrorCode.ConfigInvalid, parsed.problems.map((p) => `${p.path}: ${p.message}`).join('; '), {
      problems: parsed.problems,
    });
  }
  return { entry, backend: parsed.backend, saves, secrets };
}

/** Adds a registry entry as a backend (see the module comment). */
export async function addFromRegistry(
  ctx: RegistryAddContext,
  request: RegistryAddRequest,
): Promise<RegistryAddOutcome> {
  const { entry: registryEntry, freshness } = await resolveEntry(ctx.client, request.ref, ctx.signal);
  const option = pickOption(registryEntry.server, request.choice);
  const taken = await takenIds(ctx);
  if (request.id !== undefined) {
    if (!BACKEND_ID_PATTERN.test(request.id)) {
      fail(
        ErrorCode.InvalidParams,
        `invalid backend ID "${request.id}": use letters, digits, _ and -, starting with a letter`,
      );
    }
    if (taken.has(request.id)) fail(ErrorCode.DuplicateBackend, `a backend named ${request.id} already exists`);
  }
  const id = request.id ?? backendIdFromName(registryEntry.name, taken);
  if (option.kind === 'mcpb') return addRegistryBundle(ctx, request, registryEntry, option, id, freshness);
  const composed = await composeEntry(ctx, id, registryEntry, option, request.values, {
    unsandboxed: request.unsandboxed ?? false,
  });
  // Secrets first, so the check can read them; removed again if the check fails.
  for (const save of composed.saves) await save();
  const undo = async (): Promise<void> => {
    if (!ctx.secrets) return;
    for (const s of composed.secrets) {
      if (s.reference.startsWith('keychain:')) await ctx.secrets.delete(s.reference.slice('keychain:'.length));
    }
  };
  const tools = request.skipCheck ? undefined : await checkOrUndo(ctx, composed.backend, undo, { authorization: true });
  const needsAuthorization = !request.skipCheck && tools === undefined;
  try {
    await saveNewEntry(ctx, id, composed.entry);
  } catch (error) {
    await undo(); // refused by the core (a name or URI clash): its secrets go too
    throw error;
  }
  return {
    id,
    entry: composed.entry,
    option,
    secrets: composed.secrets,
    freshness,
    ...(tools !== undefined ? { tools } : {}),
    ...(needsAuthorization ? { needsAuthorization: true } : {}),
  };
}

/** An entry's mcpb package: downloaded, its fileSha256 checked, then installed as a bundle. */
async function addRegistryBundle(
  ctx: RegistryAddContext,
  request: RegistryAddRequest,
  registryEntry: RegistryEntry & { valid: true },
  option: Option,
  id: string,
  freshness: Freshness,
): Promise<RegistryAddOutcome> {
  const pkg = registryEntry.server.packages?.[(option.choice as { package: number }).package];
  if (!pkg?.fileSha256 || !ctx.stateDir)
    fail(ErrorCode.NotSupported, `${registryEntry.name}: cannot install this bundle here`);
  const downloads = join(ctx.stateDir, 'downloads');
  const file = await downloadBundle(
    pkg.identifier,
    pkg.fileSha256,
    downloads,
    ctx.signal ? { signal: ctx.signal } : {},
  );
  try {
    const outcome = await installBundle(ctx, file, {
      stateDir: ctx.stateDir,
      id,
      values: request.values,
      ...(request.skipCheck ? { skipCheck: true } : {}),
      ...(request.unsandboxed ? { unsandboxed: true } : {}),
      source: { registry: registryEntry.registry, name: registryEntry.name, version: registryEntry.version },
    });
    return {
      id: outcome.id,
      entry: outcome.entry,
      option,
      secrets: outcome.secrets,
      freshness,
      ...(outcome.tools !== undefined ? { tools: outcome.tools } : {}),
    };
  } finally {
    await rm(file, { force: true });
  }
}
