/**
 * The core side of the contract: one handler per method of
 * `shared/contract.ts`, on the real core (a missing method fails to compile).
 * Both pipes (Electron IPC and the headless bridge) call these through
 * `dispatch`, which redacts what they answer and throw (see `dispatch.ts`).
 */
import type { CoreHandlers } from '../../shared/contract.js';
import { exposureHandlers } from './exposureHandlers.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { LogEntryView } from '../../shared/model/views.js';
import { VERSION } from '../../shared/version.js';
import type { Launcher } from '../core/clients/types.js';
import type { AuditKind } from '../core/policy/auditLog.js';
import type { ClientTokens } from '../core/policy/clientTokens.js';
import type { SwitchboardCore } from '../core/switchboard.js';
import { backendHandlers } from './backendHandlers.js';
import { rawEntries } from './backendViews.js';
import { catalogEntries, tryPrompt, tryRead, tryTool } from './catalogViews.js';
import { clientHandlers } from './clientHandlers.js';
import { configHandlers } from './configHandlers.js';
import { requireString } from './dispatch.js';
import { policyHandlers } from './policyHandlers.js';
import { bundleHandlers } from './bundleHandlers.js';
import { registryHandlers, type RegistryHandlerDeps } from './registryHandlers.js';
import { defaultStateDir } from '../core/config/paths.js';
import type { StdioPath } from '../core/env/stdioPath.js';
import { envHandlers } from './envHandlers.js';

/** What the handlers need besides the core. */
export interface HostDeps {
  /** Where the UI runs. */
  host: 'electron' | 'headless';
  /** The MCP endpoint's URL. */
  endpointUrl: () => string;
  /** The config file (undefined: a core without one, e.g. in tests). */
  configPath: string | undefined;
  /** Client token digests (profiles' `hasToken`). */
  tokens?: ClientTokens | undefined;
  /** How client entries launch Switchboard's `connect`. */
  launcher: Launcher;
  /** Time limit of `backends.check` (default 30 s). */
  checkTimeoutMs?: number;
  /** Aborted when the host shuts down. */
  signal?: AbortSignal;
  /** Where registry answers are cached (default: the user's state dir). */
  stateDir?: string;
  /** The PATH of stdio backends (env.path, Settings). */
  stdioPath?: StdioPath;
}

/** Every contract method, implemented on `core`. */
export function createCoreHandlers(core: SwitchboardCore, deps: HostDeps): CoreHandlers {
  const registryDeps: RegistryHandlerDeps = {
    configPath: deps.configPath,
    stateDir: deps.stateDir ?? defaultStateDir(),
    secrets: core.secrets,
    environment: core.deps.environment,
    clientInfo: core.deps.clientInfo,
    addBackend: async (id, entry) => void (await core.addBackend(id, entry)),
    authorize: async (id) => {
      const { authorizationUrl } = await core.startAuthorization(id, {
        openBrowser: true,
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
      return { authorizationUrl };
    },
    backends: {
      configs: () => core.backendConfigs(),
      entry: async (id) => (await rawEntries(core, deps.configPath)).get(id),
      replace: async (id, entry) => void (await core.updateBackend(id, entry)),
    },
    ...(deps.signal ? { signal: deps.signal } : {}),
  };
  const handlers: CoreHandlers = {
    'app.info': async () => {
      const status = core.secrets
        ? await core.secrets.status()
        : { available: false, reason: 'no keychain configured' };
      let configError: string | undefined;
      if (core.configStore) configError = await core.configStore.problem();
      return {
        version: VERSION,
        endpointUrl: deps.endpointUrl(),
        ...(deps.configPath !== undefined ? { configPath: deps.configPath } : {}),
        host: deps.host,
        keychain: { available: status.available, ...(status.reason !== undefined ? { reason: status.reason } : {}) },
        ...(configError !== undefined ? { configError } : {}),
      };
    },
    ...backendHandlers(core, {
      configPath: deps.configPath,
      ...(deps.checkTimeoutMs !== undefined ? { checkTimeoutMs: deps.checkTimeoutMs } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
    }),
    'secrets.set': async (params) => {
      const name = requireString(params, 'name');
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name)) {
        throw new SwitchboardError(ErrorCode.InvalidParams, 'a secret name uses letters, digits, ".", "_" and "-"');
      }
      if (typeof params.value !== 'string' || params.value === '') {
        throw new SwitchboardError(ErrorCode.InvalidParams, '"value" must be a non-empty string');
      }
      if (!core.secrets) throw new SwitchboardError(ErrorCode.NotSupported, 'no OS keychain is configured');
      await core.secrets.set(name, params.value);
    },
    // Names only; Switchboard's own accounts (the client token key) are not the user's secrets.
    'secrets.list': async () =>
      (core.secrets ? await core.secrets.list() : []).filter((name) => !name.startsWith('switchboard:')),
    'catalog.list': async () => catalogEntries(core.catalog()),
    'catalog.callTool': async (params) =>
      tryTool(core, requireString(params, 'name'), (params.arguments ?? {}) as Record<string, unknown>),
    'catalog.getPrompt': async (params) =>
      tryPrompt(core, requireString(params, 'name'), (params.arguments ?? {}) as Record<string, string>),
    'catalog.readResource': async (params) => tryRead(core, requireString(params, 'uri')),
    ...policyHandlers(core, deps.tokens),
    ...exposureHandlers(core),
    'sessions.list': async () => core.sessions.list(),
    'log.query': async (params) => {
      const query = params ?? {};
      const entries = await core.auditQuery({
        ...(query.client !== undefined ? { client: query.client } : {}),
        ...(query.backend !== undefined ? { backend: query.backend } : {}),
        ...(query.outcome !== undefined ? { outcome: query.outcome } : {}),
        ...(query.kind !== undefined ? { kind: query.kind as AuditKind } : {}),
        ...(query.since !== undefined ? { since: query.since } : {}),
        ...(query.limit !== undefined ? { limit: query.limit } : {}),
      });
      return entries.map((entry): LogEntryView => ({
        time: entry.time,
        client: entry.client,
        backend: entry.backend,
        kind: entry.kind,
        item: entry.item,
        outcome: entry.outcome,
        ...(entry.errorCode !== undefined ? { errorCode: entry.errorCode } : {}),
        durationMs: entry.durationMs,
        ...(entry.detail !== undefined ? { detail: entry.detail } : {}),
        ...(entry.arguments !== undefined ? { arguments: entry.arguments } : {}),
        ...(entry.result !== undefined ? { result: entry.result } : {}),
      }));
    },
    ...configHandlers(core.configStore),
    ...clientHandlers({
      configPath: deps.configPath,
      endpointUrl: deps.endpointUrl,
      launcher: deps.launcher,
      secrets: core.secrets,
      environment: core.deps.environment,
      // One owner: the core's own store and tokens, never a second set in this process.
      owner:
        core.configStore && core.clientTokens
          ? { store: core.configStore, tokens: core.clientTokens, access: core.access }
          : undefined,
    }),
    ...registryHandlers(registryDeps),
    ...bundleHandlers(registryDeps),
    ...envHandlers({ stdioPath: deps.stdioPath, store: core.configStore, environment: core.deps.environment }),
  };
  return handlers;
}
