/**
 * Handlers that read the environment (a command looked up on PATH, `${VAR}`
 * expanded, where a secret may go) wait until it is final: the login shell
 * answers after the endpoint listens (core/platform/env/stdioPath.ts), and a check
 * made before would say "not found" of a command the shell's PATH has.
 */
import type { CoreHandlers } from '../../shared/contract.js';

/** `handlers`, each of which first waits for `ready` (CoreDeps.environmentReady); as they are without one. */
export function afterEnvironment<T extends Partial<CoreHandlers>>(ready: Promise<void> | undefined, handlers: T): T {
  if (!ready) return handlers;
  const gated = Object.entries(handlers).map(([method, handler]) => [
    method,
    async (...args: unknown[]) => {
      await ready;
      return (handler as (...args: unknown[]) => unknown)(...args);
    },
  ]);
  return Object.fromEntries(gated) as T;
}
