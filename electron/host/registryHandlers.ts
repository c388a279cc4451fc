/**
 * The registry side of the contract: search pages (each entry with its ways
 * of running it and their form fields, marked when already added), adding an
 * entry (install/registry/addFromRegistry.ts: runtime check, secrets to the keychain,
 * connect-and-list check, then saved; the running core picks the new entry up
 * from the file), and updating one added that way.
 */
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { RegistryEntryView } from '../../shared/model/registryViews.js';
import {
  secretSinkFor,
  addFromRegistry,
  type RegistryAddContext,
  optionsOf,
  registryClientFor,
  updateFromRegistry,
  sinkWithoutKeychain,
  type SecretStorage,
  backendSources,
  type RunningBackends,
  type RegistryEntry,
} from '../core/install/index.js';
import type { SecretStore } from '../core/platform/index.js';
import { registryUpdates } from './registryOutdated.js';
import { previewRegistryAdd } from './addPreview.js';

type RegistryMethods =
  'registry.search' | 'registry.add' | 'registry.outdated' | 'registry.update' | 'registry.preview';

/** What the registry handlers need. */
export interface RegistryHandlerDeps {
  configPath: string | undefined;
  stateDir: string;
  secrets: SecretStore | undefined;
  environment: NodeJS.ProcessEnv;
  clientInfo: { name: string; version: string };
  signal?: AbortSignal;
  /** The running core's addBackend (publishes the backend at once). */
  addBackend?: (id: string, entry: Record<string, unknown>) => Promise<void>;
  /** Starts the OAuth sign-in of a backend (the core's, as Authorize on a card): its URL. */
  authorize?: (id: string) => Promise<{ authorizationUrl: string }>;
  /** The running core's backends (taken IDs, "added" marks, updates), instead of a second store. */
  backends?: RunningBackends;
}

function entryView(entry: RegistryEntry, added: Map<string, string>): RegistryEntryView {
  const addedAs = added.get(entry.name);
  const base = { registry: entry.registry, name: entry.name, version: entry.version, ...(addedAs ? { addedAs } : {}) };
  const status = entry.official?.status ? { status: entry.official.status } : {};
  if (!entry.valid) return { ...base, ...status, valid: false, reason: entry.reason, kinds: [], options: [] };
  const { server } = entry;
  const kinds = [...new Set<string>((server.packages ?? []).map((p) => p.registryType))];
  if ((server.remotes ?? []).length > 0) kinds.push('remote');
  return {
    ...base,
    ...status,
    valid: true,
    ...(server.title ? { title: server.title } : {}),
    description: server.description,
    ...(server.repository?.url ? { repositoryUrl: server.repository.url } : {}),
    ...(server.websiteUrl ? { websiteUrl: server.websiteUrl } : {}),
    kinds,
    options: optionsOf(server),
  };
}

/** The config file, or a clear refusal for a core without one. */
function requireConfigPath(deps: RegistryHandlerDeps): string {
  if (deps.configPath === undefined) {
    throw new SwitchboardError(ErrorCode.NotSupported, 'this Switchboard runs without a config file');
  }
  return deps.configPath;
}

/**
 * What adding, updating and installing bundles need, secrets through the
 * keychain; without one, where the user chose (`storage`), else `${VAR}`
 * references, or (`ask`) a refusal that asks them to choose.
 */
export async function registryContext(
  deps: RegistryHandlerDeps,
  secrets: { storage?: SecretStorage; ask?: boolean } = {},
): Promise<RegistryAddContext> {
  const configPath = requireConfigPath(deps);
  const found = await secretSinkFor(deps.secrets, deps.environment);
  const keychain = found.status.available;
  return {
    configPath,
    client: await registryClientFor(configPath, deps.stateDir, deps.environment),
    environment: deps.environment,
    sink: !keychain && secrets.storage ? sinkWithoutKeychain(secrets.storage, deps.environment) : found.sink,
    ...(!keychain && !secrets.storage && secrets.ask ? { askSecretStorage: true } : {}),
    ...(deps.secrets ? { secrets: deps.secrets } : {}),
    clientInfo: deps.clientInfo,
    stateDir: deps.stateDir,
    ...(deps.signal ? { signal: deps.signal } : {}),
    ...(deps.addBackend ? { save: deps.addBackend } : {}),
    ...(deps.backends ? { backends: deps.backends } : {}),
  };
}

/** Handlers of the registry methods. */
export function registryHandlers(deps: RegistryHandlerDeps): Pick<CoreHandlers, RegistryMethods> {
  const configPath = (): string => requireConfigPath(deps);
  const client = () => registryClientFor(configPath(), deps.stateDir, deps.environment);
  const running = deps.backends ? { backends: deps.backends } : {};
  const context = () => registryContext(deps);
  /** Registry name -> backend ID of the backends added from a registry. */
  const addedNames = async (): Promise<Map<string, string>> => {
    const out = new Map<string, string>();
    for (const [id, source] of await backendSources({ configPath: configPath(), ...running })) out.set(source.name, id);
    return out;
  };
  return {
    'registry.search': async ({ text, cursor }) => {
      let page;
      try {
        page = await (
          await client()
        ).search(text, { ...(cursor ? { cursor } : {}), ...(deps.signal ? { signal: deps.signal } : {}) });
      } catch (error) {
        throw new SwitchboardError(ErrorCode.RegistryUnavailable, (error as Error).message);
      }
      const added = await addedNames();
      return {
        entries: page.entries.map((entry) => entryView(entry, added)),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
        offline: page.offline,
        fetchedAt: page.fetchedAt,
        failures: page.failures,
      };
    },
    'registry.add': async ({ ref, values, id, choice, secretStorage, unsandboxed }) => {
      const ctx = await registryContext(deps, { ...(secretStorage ? { storage: secretStorage } : {}), ask: true });
      const outcome = await addFromRegistry(ctx, {
        ref,
        values,
        ...(id ? { id } : {}),
        ...(choice ? { choice } : {}),
        ...(unsandboxed ? { unsandboxed: true } : {}),
      });
      // A remote that answered 401 is saved; its sign-in starts now, as Authorize on its card would.
      const signIn = outcome.needsAuthorization && deps.authorize ? await deps.authorize(outcome.id) : undefined;
      return {
        id: outcome.id,
        secrets: outcome.secrets.map((s) => s.reference),
        ...(outcome.tools !== undefined ? { tools: outcome.tools } : {}),
        ...(outcome.needsAuthorization ? { needsAuthorization: true } : {}),
        ...(signIn ? { authorizationUrl: signIn.authorizationUrl } : {}),
      };
    },
    'registry.preview': async ({ ref, values, choice }) =>
      previewRegistryAdd(await client(), { ref, values, ...(choice ? { choice } : {}) }, deps.signal),
    'registry.outdated': async () =>
      registryUpdates({
        configPath: deps.configPath,
        stateDir: deps.stateDir,
        environment: deps.environment,
        ...(deps.signal ? { signal: deps.signal } : {}),
        ...running,
      }),
    'registry.update': async ({ id, dryRun }) => {
      const outcome = await updateFromRegistry(await context(), id, { dryRun: dryRun === true });
      return {
        id: outcome.id,
        from: outcome.from,
        to: outcome.to,
        changes: outcome.changes,
        applied: outcome.applied,
      };
    },
  };
}
