/**
 * One sentence for one thing a sandbox refused a server, the same on every
 * screen and in every answer: the server's card, its health, `doctor`, the
 * Request log, the error text the client gets and the Try-it panel
 * ("blocked by the sandbox: read of ~/.aws/credentials", "... write to /x",
 * "... connection to api.github.com"). Kept here, beside the refusal's type,
 * so the core, the CLI and the renderer never word it apart.
 */
import type { SandboxBlock } from './health.js';

/** What every refusal's sentence starts with. */
export const SANDBOX_BLOCKED_PREFIX = 'blocked by the sandbox:';

/** `path` with `home` shown as `~` (a path outside it as it is). */
export function shortPath(path: string, home: string | undefined): string {
  if (!home || home === '/') return path;
  const base = home.endsWith('/') ? home.slice(0, -1) : home;
  if (path === base) return '~';
  return path.startsWith(`${base}/`) ? `~${path.slice(base.length)}` : path;
}

/** The sentence for one refusal; `home` (the home the server was given) is shortened to `~`. */
export function blockSentence(block: SandboxBlock, home?: string): string {
  if (block.kind === 'connect') return `${SANDBOX_BLOCKED_PREFIX} connection to ${block.target}`;
  const path = shortPath(block.target, home);
  return `${SANDBOX_BLOCKED_PREFIX} ${block.kind === 'read' ? `read of ${path}` : `write to ${path}`}`;
}
