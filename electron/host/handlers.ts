/**
 * The core side of the contract: one handler per method of
 * `shared/contract.ts`, on the real core (a missing method fails to compile).
 * Both pipes (Electron IPC and the headless bridge) call these through
 * `dispatch`, which redacts what they answer and throw (see `dispatch.ts`).
 */
import { taskHandlers } from './taskHandlers.js';
import type { CoreHandlers } from '../../shared/contract.js';
import { exposureHandlers } from './exposureHandlers.js';
import { overrideHandlers } from './overrideHandlers.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import { VERSION } from '../../shared/version.js';
import type { Launcher } from '../core/install/index.js';
import type { AuditDecision, AuditKind, ClientTokens } from '../core/catalog/index.js';
import type { LogKind } from '../../shared/model/views.js';
import type { LogDecisionSource } from '../../shared/model/logViews.js';
import type { Switchboard } from '../core/api/index.js';
import { backendHandlers } from './backendHandlers.js';
import { catalogAccess, searchAs } from './catalogAccess.js';
import { rawEntries } from './backendViews.js';
import { catalogEntries, tryPrompt, tryRead, tryTool } from './catalogViews.js';
import { clientHandlers, coreClientDeps } from './clientHandlers.js';
import { keepReason } from './skillsSyncStart.js';
import { configHandlers } from './configHandlers.js';
import { policyHandlers } from './policyHandlers.js';
import { profileFileHandlers } from './profileFileHandlers.js';
import { reviewHandlers } from './reviewHandlers.js';
import { connectionHandlers } from './connectionHandlers.js';
import { registryHandlers, type RegistryHandlerDeps } from './registryHandlers.js';
import { TryCalls, type TryCall } from './tryCalls.js';
import { bundleHandlers } from './bundleHandlers.js';
import { defaultStateDir, type StdioPath } from '../core/platform/index.js';
import { envHandlers } from './envHandlers.js';
import { sandboxHandlers } from './sandboxHandlers.js';
import { afterEnvironment } from './afterEnvironment.js';
import { logEntryView } from './logEntryView.js';
import { meHandlers } from './meHandlers.js';
import { OPERATOR } from './uiSessions.js';

// The request log's kinds are declared twice (the core's AuditKind, the contract's LogKind): equal, or this fails to compile.
const sameKinds: [AuditKind, LogKind] extends [LogKind, AuditKind] ? true : never = true;
void sameKinds;
// Likewise the levels a logged decision comes from.
const sameSources: [AuditDecision['source'], LogDecisionSource] extends [LogDecisionSource, AuditDecision['source']]
  ? true
  : never = true;
void sameSources;

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
  /** The UI's "try it" calls in flight (give the event hub the same one; default: a fresh one). */
  tryCalls?: TryCalls;
}

/** Every contract method, implemented on `core`. */
export function createCoreHandlers(core: Switchboard, deps: HostDeps): CoreHandlers {
  /** A call's signal, also aborted when the host shuts down. */
  const withHost = (signal: AbortSignal): AbortSignal =>
    deps.signal ? AbortSignal.any([signal, deps.signal]) : signal;
  const tryCalls = deps.tryCalls ?? new TryCalls();
  /** Runs one "try it" call under its own channel, progress and cancellation. */
  const tracked = async <T>(
    callId: string | undefined,
    signal: AbortSignal,
    run: (call: TryCall) => Promise<T>,
  ): Promise<T> => {
    const call = tryCalls.begin(callId, withHost(signal));
    try {
      return await run(call);
    } finally {
      call.end();
    }
  };
  const registryDeps: RegistryHandlerDeps = {
    configPath: deps.configPath,
    stateDir: deps.stateDir ?? defaultStateDir(),
    secrets: core.secrets,
    environment: core.deps.environment,
    clientInfo: core.deps.clientInfo,
    addBackend: async (id, entry) => void (await core.backends.addBackend(id, entry)),
    authorize: async (id) => {
      const { authorizationUrl } = await core.auth.startAuthorization(id, {
        openBrowser: true,
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
      return { authorizationUrl };
    },
    backends: {
      configs: () => core.backends.backendConfigs(),
      entry: async (id) => (await rawEntries(core, deps.configPath)).get(id),
      replace: async (id, entry) => void (await core.backends.updateBackend(id, entry)),
    },
    ...(deps.signal ? { signal: deps.signal } : {}),
  };
  const ready = core.deps.environmentReady;
  const backends = backendHandlers(core, {
    configPath: deps.configPath,
    ...(deps.checkTimeoutMs !== undefined ? { checkTimeoutMs: deps.checkTimeoutMs } : {}),
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  const handlers: CoreHandlers = {
    'app.info': async () => {
      const status = core.secrets
        ? await core.secrets.status()
        : { available: false, reason: 'no keychain configured' };
      let configError: string | undefined;
      if (core.configStore) configError = await core.configStore.problem();
      const restartNeeded = core.settings.restartNeeded();
      return {
        version: VERSION,
        endpointUrl: deps.endpointUrl(),
        ...(deps.configPath !== undefined ? { configPath: deps.configPath } : {}),
        host: deps.host,
        keychain: { available: status.available, ...(status.reason !== undefined ? { reason: status.reason } : {}) },
        ...(configError !== undefined ? { configError } : {}),
        ...(restartNeeded.length > 0 ? { restartNeeded: [...restartNeeded] } : {}),
      };
    },
    ...backends,
    // These start a child to check an entry, or read the environment for its secrets.
    ...afterEnvironment(ready, {
      'backends.check': backends['backends.check'],
      'backends.add': backends['backends.add'],
      'backends.parseSnippet': backends['backends.parseSnippet'],
    }),
    'secrets.set': async ({ name, value }) => {
      if (!core.secrets) throw new SwitchboardError(ErrorCode.NotSupported, 'no OS keychain is configured');
      await core.secrets.set(name, value);
    },
    // Names only; Switchboard's own accounts (the client token key) are not the user's secrets.
    'secrets.list': async () =>
      (core.secrets ? await core.secrets.list() : []).filter((name) => !name.startsWith('switchboard:')),
    'catalog.list': async () => catalogEntries(core.catalog(), core.backends.backendConfigs()),
    'catalog.access': async (params) => catalogAccess(core, params.profile),
    'catalog.search': async (params) => searchAs(core, params.profile, params.query, params.limit),
    'catalog.callTool': async (params, { signal }) =>
      tracked(params.callId, signal, (call) =>
        tryTool(core, params.name, params.arguments, { call, profile: params.profile }),
      ),
    'catalog.getPrompt': async (params, { signal }) =>
      tracked(params.callId, signal, (call) => tryPrompt(core, params.name, params.arguments, { call })),
    'catalog.readResource': async (params, { signal }) =>
      tracked(params.callId, signal, (call) => tryRead(core, params.uri, { call })),
    'catalog.cancelCall': async ({ callId }) => ({ cancelled: tryCalls.cancel(callId) }),
    'catalog.inputs': async () => tryCalls.inputs(),
    'catalog.answerInput': async ({ id, action, content }) => {
      tryCalls.settle({ id, action, ...(content !== undefined ? { content } : {}) });
    },
    ...policyHandlers(core, deps.tokens),
    ...profileFileHandlers(core),
    ...reviewHandlers(core),
    ...connectionHandlers(core),
    ...exposureHandlers(core),
    ...overrideHandlers(core),
    'sessions.list': async () => core.sessions.list(),
    ...taskHandlers(core),
    'log.query': async (query) => (await core.audit.query(query)).map(logEntryView),
    ...meHandlers(core, OPERATOR),
    ...configHandlers(core.configStore),
    ...afterEnvironment(
      ready,
      clientHandlers({ ...coreClientDeps(core, deps), keepSkill: (skill) => keepReason(core, skill) }),
    ),
    ...afterEnvironment(ready, registryHandlers(registryDeps)),
    ...afterEnvironment(ready, bundleHandlers(registryDeps)),
    ...afterEnvironment(
      ready,
      envHandlers({ stdioPath: deps.stdioPath, store: core.configStore, environment: core.deps.environment }),
    ),
    // Whether bubblewrap runs depends on the PATH the login shell gives.
    ...afterEnvironment(ready, sandboxHandlers(core, deps.configPath)),
  };
  return handlers;
}
