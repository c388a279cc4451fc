/**
 * The Backends side of the contract: list, check, add (checked first), edit,
 * remove, enable/disable, restart, refresh, paste a snippet, and OAuth sign-in
 * (the core's startAuthorization / signOut).
 */
import { homedir } from 'node:os';
import type { CoreHandlers } from '../../shared/contract.js';
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { Switchboard } from '../core/api/index.js';
import { checkBackend } from './backendCheck.js';
import { backendView, backendViews, mergeHidden, rawEntry } from './backendViews.js';
import { parseSnippet } from './snippetParse.js';
import { PastedPlainSecrets } from './pastedPlainSecrets.js';

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
  const pasted = new PastedPlainSecrets();
  /** A check, stopped when its caller cancels the call or the host shuts down. */
  const check = (id: string, entry: Record<string, unknown>, signal: AbortSignal) =>
    checkBackend(core, id, entry, {
      ...(deps.checkTimeoutMs !== undefined ? { timeoutMs: deps.checkTimeoutMs } : {}),
      signal: deps.signal ? AbortSignal.any([signal, deps.signal]) : signal,
    });
  return {
    'backends.list': () => backendViews(core, configPath),
    'backends.check': ({ id, entry }, call) => check(id, entry, call.signal),
    'backends.add': async ({ id, entry: given, force }, call) => {
      const entry = pasted.resolve(id, given);
      if (core.backends.backendConfigs().some((backend) => backend.id === id)) {
        throw new SwitchboardError(ErrorCode.DuplicateBackend, `a backend with ID "${id}" already exists`, {
          backend: id,
        });
      }
      if (force === true) {
        // Saved even though it does not start: added disabled, then switched to the real entry (retried with backoff).
        await core.backends.addBackend(id, { ...entry, enabled: false });
        await core.backends.updateBackend(id, entry);
        return backendView(core, configPath, id);
      }
      const result = await check(id, entry, call.signal);
      if (!result.ok && !result.needsAuthorization) {
        const error = result.error ?? { code: ErrorCode.ConnectFailed, message: `cannot connect to "${id}"` };
        throw new SwitchboardError(error.code, error.message, { ...error.data, check: result });
      }
      await core.backends.addBackend(id, entry);
      return backendView(core, configPath, id);
    },
    'backends.parseSnippet': async ({ text, secretStorage }) =>
      pasted.mask(
        await parseSnippet(text, {
          storage: secretStorage,
          home: homedir(),
          taken: core.backends.backendConfigs().map((backend) => backend.id),
          secrets: core.secrets,
          environment: core.deps.environment,
        }),
      ),
    'backends.update': async ({ id, entry: edited }) => {
      const entry = mergeHidden(await rawEntry(core, configPath, id), edited);
      await core.backends.updateBackend(id, entry);
      return backendView(core, configPath, id);
    },
    'backends.remove': async ({ id }) => core.backends.removeBackend(id),
    'backends.setEnabled': async ({ id, enabled }) => {
      const entry = { ...(await rawEntry(core, configPath, id)) };
      if (enabled) delete entry['enabled'];
      else entry['enabled'] = false;
      await core.backends.updateBackend(id, entry);
      return backendView(core, configPath, id);
    },
    'backends.restart': ({ id }) => core.backends.restartBackend(id),
    'backends.refresh': ({ id }) => core.backends.refreshBackend(id),
    'backends.authorize': async ({ id }) => {
      // Resolves once the URL is known (the browser opens on it); the backend reconnects when the user is back.
      const { authorizationUrl } = await core.auth.startAuthorization(id, {
        openBrowser: true,
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
      return { authorizationUrl };
    },
    'backends.signOut': async ({ id }) => {
      await core.auth.signOut(id);
    },
  };
}
