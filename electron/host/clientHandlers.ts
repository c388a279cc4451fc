/**
 * The Clients side of the contract: which client apps are here, install and
 * uninstall our entry, the snippet to paste (its token masked: tokens are
 * only shown by profiles.createToken / rotateToken), and importing a
 * client's servers (secrets to the OS keychain when there is one).
 */
import { previewOf } from './addPreview.js';
import { redactEntry } from './backendViews.js';
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import {
  defaultClientsContext,
  type ClientsContext,
  type ProfileOwner,
  importServers,
  listImportable,
  detectClients,
  installClient,
  installSkills,
  uninstallClient,
  secretSinkFor,
  clientSnippet,
  gatewayContext,
  gatewayResourceOf,
  type Launcher,
} from '../core/install/index.js';
import { defaultConfigPath, type SecretStore } from '../core/platform/index.js';
import type { Switchboard } from '../core/api/index.js';

type ClientMethods =
  | 'clients.list'
  | 'clients.install'
  | 'clients.uninstall'
  | 'clients.snippet'
  | 'clients.importable'
  | 'clients.import'
  | 'clients.installSkills';

/** What the client handlers need. */
export interface ClientHandlerDeps {
  /** Switchboard's config file; client profiles and imported servers go there. */
  configPath: string | undefined;
  /** The endpoint clients are pointed at. */
  endpointUrl: () => string;
  /** How a client's `connect` entry starts Switchboard. */
  launcher: Launcher;
  secrets: SecretStore | undefined;
  environment: NodeJS.ProcessEnv;
  /** The core's config store, client tokens and access control: profiles, tokens and imports go through them. */
  owner?: ProfileOwner | undefined;
  /** Why one of our installed skills no longer offered is kept (held for review, its server down): skillsSyncStart.ts. */
  keepSkill?: (skill: { name: string; uri: string }) => string | undefined;
}

/**
 * The client handlers' deps from a running core: its secrets and environment, and one owner of profiles
 * and tokens (the core's own store and tokens, never a second set in this process). The contract's
 * handlers and the skills sync both take them from here.
 */
export function coreClientDeps(
  core: Switchboard,
  own: Pick<ClientHandlerDeps, 'configPath' | 'endpointUrl' | 'launcher'>,
): ClientHandlerDeps {
  return {
    configPath: own.configPath,
    endpointUrl: own.endpointUrl,
    launcher: own.launcher,
    secrets: core.secrets,
    environment: core.deps.environment,
    owner:
      core.configStore && core.clientTokens
        ? { store: core.configStore, tokens: core.clientTokens, access: core.policy }
        : undefined,
  };
}

/** Placeholder that replaces a client token in a snippet. */
export const MASKED_TOKEN = '<token: create one under Clients → Client profiles and tokens>';

/** The clients context of these deps: the loopback endpoint and the profiles' tokens (`local`), or in gateway mode the gateway's. */
export function clientsContexts(deps: ClientHandlerDeps): {
  configPath: () => string;
  local: () => ClientsContext;
  context: () => Promise<ClientsContext>;
} {
  const configPath = (): string => {
    if (deps.configPath === undefined) {
      throw new SwitchboardError(ErrorCode.NotSupported, 'this Switchboard runs without a config file');
    }
    return deps.configPath;
  };
  const local = (): ClientsContext =>
    defaultClientsContext({
      port: Number(new URL(deps.endpointUrl()).port),
      launcher: deps.launcher,
      switchboardConfig: configPath(),
      ...(configPath() !== defaultConfigPath() ? { configPath: configPath() } : {}),
      environment: deps.environment,
      ...(deps.owner ? { owner: deps.owner } : {}),
    });
  // Gateway mode: entries name the gateway's public URL, and the client signs in with OAuth itself.
  const context = async (): Promise<ClientsContext> => {
    const resource = await gatewayResourceOf(configPath());
    return resource === undefined ? local() : gatewayContext(local(), resource);
  };
  return { configPath, local, context };
}

/** Handlers of the client methods. */
export function clientHandlers(deps: ClientHandlerDeps): Pick<CoreHandlers, ClientMethods> {
  const { configPath, context, local } = clientsContexts(deps);
  const scope = (project: string | undefined) => (project ? { project } : {});
  const sink = async (ctx: ClientsContext) => (await secretSinkFor(deps.secrets, ctx.platform.env)).sink;
  return {
    'clients.list': async () =>
      (await detectClients(await context())).map((status) => ({
        id: status.id,
        name: status.name,
        configPath: status.configPath,
        detected: status.detected,
        installed: status.installed,
        transport: status.transport,
        supportsProject: status.supportsProject,
        toolNameBudget: status.toolNameBudget,
        ...(status.problem ? { problem: status.problem } : {}),
      })),
    'clients.install': async ({ client, project }) => {
      const outcome = await installClient(await context(), client, scope(project));
      return {
        path: outcome.path,
        changed: outcome.changed,
        ...(outcome.backup !== undefined ? { backup: outcome.backup } : {}),
        notes: outcome.notes,
      };
    },
    'clients.uninstall': async ({ client, project }) => {
      const outcome = await uninstallClient(await context(), client, scope(project));
      return {
        path: outcome.path,
        changed: outcome.changed,
        ...(outcome.backup !== undefined ? { backup: outcome.backup } : {}),
      };
    },
    'clients.snippet': async ({ client }) => {
      // Built with the placeholder, not the client's token: showing a snippet creates no profile or token.
      const masked: ClientsContext = {
        ...(await context()),
        tokens: { tokenFor: () => Promise.resolve(MASKED_TOKEN) },
      };
      const snippet = await clientSnippet(masked, client);
      return { text: snippet.text };
    },
    'clients.importable': async ({ client }) => {
      const ctx = await context();
      const candidates = await listImportable(ctx, client, {
        switchboardConfig: configPath(),
        secrets: await sink(ctx),
        ...(deps.owner ? { store: deps.owner.store } : {}),
      });
      return candidates.map((candidate) => ({
        name: candidate.name,
        id: candidate.id,
        inSwitchboard: candidate.inSwitchboard,
        secretFields: candidate.secrets.map((secret) => secret.field),
        ...(candidate.skipReason !== undefined ? { skipReason: candidate.skipReason } : {}),
        warnings: candidate.warnings,
        // What it will run and its sandbox, shown before the import (secrets in its arguments masked).
        ...(candidate.entry ? { preview: previewOf(redactEntry(candidate.entry).entry) } : {}),
      }));
    },
    'clients.import': async ({ client, names, replace }) => {
      const ctx = await context();
      const outcome = await importServers(ctx, client, {
        switchboardConfig: configPath(),
        secrets: await sink(ctx),
        ...(deps.owner ? { store: deps.owner.store } : {}),
        names,
        replace: replace === true,
      });
      return { imported: outcome.imported.map((item) => item.id) };
    },
    // Through this instance's own endpoint with the client's profile token (never the gateway's URL).
    'clients.installSkills': async ({ client, preview }, call) => {
      const outcome = await installSkills(local(), client, {
        signal: AbortSignal.any([call.signal, AbortSignal.timeout(120_000)]),
        ...(deps.keepSkill ? { keep: deps.keepSkill } : {}),
        preview: preview === true,
      });
      return {
        client,
        folder: outcome.folder,
        preview: preview === true,
        written: outcome.installed.map((name) => ({ name, files: outcome.files[name] ?? [] })),
        unchanged: outcome.unchanged,
        removed: outcome.removed,
        kept: outcome.kept,
        skipped: outcome.skipped,
      };
    },
  };
}
