import type { SessionView } from './views.js';

/**
 * How many live 2025-era HTTP sessions (`Mcp-Session-Id`) a session list
 * holds: the figure `/readyz` reports as `sessions`. 2026-07-28 clients are
 * stateless and stdio connections are not HTTP sessions, so neither counts.
 */
export function countHttpSessions(sessions: readonly Pick<SessionView, 'era' | 'transport'>[]): number {
  return sessions.filter((session) => session.era === 'legacy' && session.transport === 'http').length;
}
