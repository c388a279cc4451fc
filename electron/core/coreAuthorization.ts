/**
 * The core's OAuth actions on a running backend (MCP authorization spec):
 * the user's authorization, which reconnects the backend once tokens are in
 * the keychain, and sign-out, which leaves it waiting for the user. The core
 * delegates its public methods here; the OAuth clients are the AuthRegistry's.
 */
import { ErrorCode, SwitchboardError } from '../../shared/errors.js';
import type { BackendHealth } from '../../shared/model/health.js';
import type { SupervisorMap } from './backends/supervisorMap.js';
import type { CoreDeps } from './deps.js';
import type { BackendAuth } from './auth/backendAuth.js';

/** What the OAuth actions need from the core. */
export interface CoreAuthorizationHost {
  readonly deps: CoreDeps;
  readonly supervisors: SupervisorMap;
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
