/**
 * The Backends side of the contract: list, check, add (checked first), edit,
 * remove, enable/disable, restart, refresh, paste a snippet, and OAuth sign-in
 * (the core's startAuthorization / signOut).
 */
import { homedir } from 'node:os';
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { Switchboard } from '../core/coreApi.js';
import { checkBackend } from './backendCheck.js';
import { backendView, backendViews, mergeHidden, rawEntry } from './backendViews.js';
import { requireObject, requireString } from './dispatch.js';
import { parseSnippet } from './snippetParse.js';

type BackendMethods =
  | 'backends.list'
  | 'backends.check'
  | 'backends.add'
  | 'backends.parseSnippet'
  | 'backends.update'
  | 'backends.remove'
  | 'backends.setEnabled'
  | 'backends.restart'
  | 'backends.refresh'
  | 'backends.authorize'
  | 'backends.signOut';

/** What the backend handlers need besides the core. */
export interface BackendHandlerDeps {
  /** The config file (undefined: none; entries are rebuilt from the running config). */
  configPath: string | undefined;
  /** Time limit of a check (default 30 s). */
  checkTimeoutMs?: number;
  /** Aborted when the host shuts down: checks in progress stop. */
  signal?: AbortSignal;
}

/** Handlers of the backend methods. */
export function backendHandlers(core: Switchboard, deps: BackendHandlerDeps): Pick<CoreHandlers, BackendMethods> {
  const { configPath } = deps;
  const check = (id: string, entry: Record<string, unknown>) =>
    checkBackend(core, id, entry, {
      ...(deps.checkTimeoutMs !== undefined ? { timeoutMs: deps.checkTimeoutMs } : {}),
      ...(deps.signal ? { signal: deps.signal } : {}),
    });
  return {
    'backends.list': () => backendViews(core, configPath),
    'backends.check': (params) => check(requireString(params, 'id'), requireObject(params, 'entry')),
    'backends.add': async (params) => {
      const id = requireString(params, 'id');
      const entry = requireObject(params, 'entry');
      if (core.backends.backendConfigs().some((backend) => backend.id === id)) {
        throw new SwitchboardError(ErrorCode.DuplicateBackend, `a backend with ID "${id}" already exists`, {
          backend: id,
        });
      }
      if (params.force === true) {
        // Saved even though it does not start: added disabled, then switched to the real entry (retried with backoff).
        await core.backends.addBackend(id, { ...entry, enabled: false });
        await core.backends.updateBackend(id, entry);
        return backendView(core, configPath, id);
      }
      const result = await check(id, entry);
      if (!result.ok && !result.needsAuthorization) {
        const error = result.error ?? { code: ErrorCode.ConnectFailed, message: `cannot connect to "${id}"` };
        throw new SwitchboardError(error.code as ErrorCode, error.message, { ...error.data, check: result });
      }
      await core.backends.addBackend(id, entry);
      return backendView(core, configPath, id);
    },
    'backends.parseSnippet': async (params) =>
      parseSnippet(requireString(params, 'text'), {
        home: homedir(),
        taken: core.backends.backendConfigs().map((backend) => backend.id),
        secrets: core.secrets,
        environment: core.deps.environment,
      }),
    'backends.update': async (params) => {
      const id = requireString(params, 'id');
      const entry = mergeHidden(await rawEntry(core, configPath, id), requireObject(params, 'entry'));
      await core.backends.updateBackend(id, entry);
      return backendView(core, configPath, id);
    },
    'backends.remove': async (params) => core.backends.removeBackend(requireString(params, 'id')),
    'backends.setEnabled': async (params) => {
      const id = requireString(params, 'id');
      if (typeof params.enabled !== 'boolean') {
        throw new SwitchboardError(ErrorCode.InvalidParams, '"enabled" must be true or false');
      }
      const entry = { ...(await rawEntry(core, configPath, id)) };
      if (params.enabled) delete entry['enabled'];
      else entry['enabled'] = false;
      await core.backends.updateBackend(id, entry);
      return backendView(core, configPath, id);
    },
    'backends.restart': (params) => core.backends.restartBackend(requireString(params, 'id')),
    'backends.refresh': (params) => core.backends.refreshBackend(requireString(params, 'id')),
    'backends.authorize': async (params) => {
      // Resolves once the URL is known (the browser opens on it); the backend reconnects when the user is back.
      const { authorizationUrl } = await core.auth.startAuthorization(requireString(params, 'id'), {
        openBrowser: true,
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
      return { authorizationUrl };
    },
    'backends.signOut': async (params) => {
      await core.auth.signOut(requireString(params, 'id'));
    },
  };
}
