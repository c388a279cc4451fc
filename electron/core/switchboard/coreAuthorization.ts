/**
 * The core's OAuth actions on a running backend (MCP authorization spec):
 * the user's authorization, which reconnects the backend once tokens are in
 * the keychain, sign-out, which leaves it waiting for the user, and the
 * offline status. They make up the core's AuthService (api/services.ts); the OAuth
 * clients are the AuthRegistry's.
 */
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import type { BackendHealth } from '../../../shared/model/health.js';
import { readAuthStatus } from '../platform/auth/authRegistry.js';
import type { BackendPool } from '../backends/supervisor/backendPool.js';
import type { SwitchboardConfig } from '../platform/config/schema.js';
import type { AuthService } from '../api/services.js';
import type { CoreServices } from './coreServices.js';
import type { CoreDeps } from '../platform/deps.js';
import type { BackendAuth } from '../platform/auth/backendAuth.js';

/** What the OAuth actions need from the core. */
export interface CoreAuthorizationHost {
  readonly deps: CoreDeps;
  readonly supervisors: BackendPool;
  /** The keychain the status is read from (`services.secrets`). */
  readonly services: CoreServices;
  /** The config in force (its backends are the ones the status covers). */
  config(): SwitchboardConfig;
  /** The backend's OAuth client (undefined: it does not use OAuth). */
  authFor(backendId: string): BackendAuth | undefined;
  /** A backend's health with its catalog counts. */
  health(backendId: string): BackendHealth;
}

/**
 * Starts the user's authorization of a remote backend. Resolves as soon as
 * the authorization URL is known (opened with `deps.openUrl` when
 * `openBrowser`); `done` settles once the browser came back to the loopback
 * listener, the tokens are in the keychain and the backend reconnected.
 */
export async function startBackendAuthorization(
  host: CoreAuthorizationHost,
  backendId: string,
  options: { signal?: AbortSignal; openBrowser?: boolean } = {},
): Promise<{ authorizationUrl: string; done: Promise<BackendHealth> }> {
  host.supervisors.require(backendId);
  const auth = host.authFor(backendId);
  if (!auth) {
    throw new SwitchboardError(
      ErrorCode.AuthorizationFailed,
      `backend "${backendId}" does not use OAuth (a stdio server, or its config sets an Authorization header)`,
      { backend: backendId },
    );
  }
  const flow = await auth.authorize({ signal: options.signal });
  if (options.openBrowser) {
    await host.deps.openUrl?.(flow.authorizationUrl).catch((error: unknown) => {
      host.deps.logger.warn(`could not open the browser: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
  const done = flow.done.then(async () => {
    await host.supervisors.require(backendId).restart();
    return host.health(backendId);
  });
  // The caller may never await `done`; a failed flow must not be an unhandled rejection.
  done.catch(() => undefined);
  return { authorizationUrl: flow.authorizationUrl, done };
}

/**
 * Signs a remote backend out: revokes its tokens where the authorization
 * server supports revocation, deletes them and its client registration from
 * the keychain; the backend then needs authorization.
 */
export async function signOutBackend(host: CoreAuthorizationHost, backendId: string): Promise<{ revoked: boolean }> {
  const supervisor = host.supervisors.require(backendId);
  const auth = host.authFor(backendId);
  if (!auth) return { revoked: false };
  const result = await auth.signOut();
  // A live connection already went to needs-authorization through the auth's
  // listener; one that was not live (down, connecting) is put there now.
  if (host.health(backendId).status !== 'needs-authorization') supervisor.authorizationLost();
  return result;
}

/** The core's AuthService: the actions above on the core's backends, and their offline status. */
export function createAuthService(host: CoreAuthorizationHost): AuthService {
  return {
    startAuthorization: (backendId, options) => startBackendAuthorization(host, backendId, options),
    signOut: (backendId) => signOutBackend(host, backendId),
    authStatus: () => readAuthStatus(host.config().backends, host.services.secrets),
  };
}
