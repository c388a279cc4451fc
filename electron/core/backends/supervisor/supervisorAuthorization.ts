/**
 * A supervisor's handling of its backend's OAuth authorization (MCP
 * authorization spec). Lost authorization (a refused refresh, a sign-out, a
 * 401 a refresh cannot fix) disconnects the backend until the user
 * authorizes; a 403 insufficient_scope (step-up) keeps the connection and
 * catalog, which the current grant still serves. A backend that needs the
 * user is never retried in a loop: it connects again once new tokens are in
 * the keychain (an authorization here or from another process, e.g. the
 * CLI), looked for every health interval.
 */
import type { AuthProvider } from '@modelcontextprotocol/client';
import type { ErrorData } from '../../../../shared/errors.js';
import type { SwitchboardError } from '../../../../shared/errors.js';
import { authorizationRequired, type AuthorizationProblem } from '../../platform/auth/authErrors.js';
import type { BackendAuth } from '../../platform/auth/backendAuth.js';
import type { BackendConnection } from '../connection/backendConnection.js';
import type { SupervisorHost } from './supervisorHost.js';

/** What authorization handling may see and do of its supervisor. */
export interface SupervisorAuthorizationHost {
  readonly id: string;
  readonly host: SupervisorHost;
  /** Whether the supervisor stopped for good. */
  isStopped(): boolean;
  isEnabled(): boolean;
  /** The supervisor's current connection, and its live one (see `liveConnection`). */
  current(): BackendConnection | undefined;
  live(): BackendConnection | undefined;
  /** Whether it waits for the user with no connection: new tokens reconnect it. */
  isWaiting(): boolean;
  /** Takes the current connection out (no retry, no probe, items unpublished); returns it, still open. */
  detach(): BackendConnection | undefined;
  /** Records why and sets the status to `needs-authorization`. */
  needsAuthorization(lastError: ErrorData & { at: string }): void;
  restart(): void;
}

/** The authorization side of one backend's supervisor. */
export class SupervisorAuthorization {
  private unsubscribe: (() => void) | undefined;
  /** While authorization is needed: looks for new tokens in the keychain. */
  private poll: NodeJS.Timeout | undefined;

  constructor(private readonly subject: SupervisorAuthorizationHost) {}

  private get auth(): BackendAuth | undefined {
    return this.subject.host.authFor?.(this.subject.id);
  }

  /**
   * For a new connection attempt: stops looking for tokens and listens for
   * lost authorization with `onLost` (replacing the last attempt's listener).
   * Returns the bearer-token provider for the attempt's transport.
   */
  attach(onLost: () => void): AuthProvider | undefined {
    this.stopPolling();
    const auth = this.auth;
    this.unsubscribe?.();
    this.unsubscribe = auth?.onNeedsAuthorization(onLost);
    return auth?.transportAuth();
  }

  /** Stops listening and looking for tokens (the supervisor stopped for good). */
  detach(): void {
    this.stopPolling();
    this.unsubscribe?.();
  }

  /** Authorization was lost while `connection` was live (e.g. a refused refresh). */
  connectionLost(connection: BackendConnection): void {
    if (this.subject.current() === connection && this.subject.live() === connection) this.lost();
  }

  /**
   * The backend's OAuth authorization is gone (refused refresh, sign-out):
   * disconnect, take its items out and wait for the user.
   */
  lost(): void {
    const { subject } = this;
    if (subject.isStopped() || !subject.isEnabled()) return;
    const connection = subject.detach();
    const reason = this.auth?.pendingReason ?? 'authorization was lost';
    const error = authorizationRequired(subject.id, { reason, stepUp: false });
    // Requests in flight fail with why.
    void connection?.close(error);
    this.required(error);
  }

  /**
   * A request failed for want of authorization. A 403 insufficient_scope
   * (step-up) keeps the connection and catalog, which the current grant still
   * serves; anything else disconnects until the user authorizes.
   */
  problem(connection: BackendConnection, problem: AuthorizationProblem): void {
    const { subject } = this;
    if (subject.isStopped() || subject.current() !== connection) return;
    if (!problem.stepUp) return this.connectionLost(connection);
    const reason = this.auth?.stepUp(problem.scope) ?? problem.reason;
    const lastError = { ...authorizationRequired(subject.id, { ...problem, reason }).toData(), at: now() };
    subject.host.deps.logger.warn(`backend "${subject.id}" needs authorization: ${reason}`);
    subject.needsAuthorization(lastError);
  }

  /** Not retried: waits for new tokens (looked for every health interval). */
  required(error: SwitchboardError): void {
    const { subject } = this;
    const lastError = { ...error.toData(), at: now() };
    subject.host.deps.logger.warn(`backend "${subject.id}" ${error.message.replace(`backend "${subject.id}" `, '')}`);
    subject.needsAuthorization(lastError);
    const auth = this.auth;
    if (!auth || subject.isStopped()) return;
    this.stopPolling();
    this.poll = setInterval(() => {
      void auth.storedTokensChanged().then((changed) => {
        if (changed && subject.isWaiting()) subject.restart();
      });
    }, subject.host.proxyOptions().healthIntervalMs);
    this.poll.unref();
  }

  private stopPolling(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
  }
}

const now = (): string => new Date().toISOString();
