/**
 * What `serve` says while it starts and when it stops, for a person watching
 * the terminal: "starting 12 servers...", a line every few seconds naming the
 * ones still on their first attempt (a slow `npx`/`uvx` download otherwise
 * looks like a hang), and one line on Ctrl-C saying every server was stopped.
 */
import type { BackendHealth } from '../../shared/model/health.js';

/** What the progress needs of the core. */
export interface ProgressSource {
  /** The configured backends (known before any has started). */
  backendConfigs(): readonly { id: string; enabled: boolean }[];
  /** Their health, once started. */
  health(): Pick<BackendHealth, 'id' | 'settled'>[];
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Names listed in a progress line, at most. */
const MAX_NAMES = 8;

/**
 * Says how many servers start, then every `intervalMs` which are still on
 * their first connection attempt, until `done()`.
 */
export function reportStartProgress(
  core: ProgressSource,
  log: (line: string) => void,
  intervalMs = 5000,
): { done(): void } {
  const enabled = new Set(core.backendConfigs().flatMap((backend) => (backend.enabled ? [backend.id] : [])));
  const total = enabled.size;
  if (total === 0) return { done: () => undefined };
  log(`starting ${plural(total, 'server')}...`);
  const timer = setInterval(() => {
    const started = new Map(core.health().map((backend) => [backend.id, backend.settled]));
    const pending = [...enabled].filter((id) => started.get(id) !== true).map((id) => ({ id }));
    if (pending.length === 0) return;
    const names = pending.slice(0, MAX_NAMES).map((backend) => backend.id);
    const more = pending.length > MAX_NAMES ? `, and ${pending.length - MAX_NAMES} more` : '';
    log(`still starting: ${total - pending.length} of ${total} done; waiting for ${names.join(', ')}${more}`);
  }, intervalMs);
  timer.unref();
  return { done: () => clearInterval(timer) };
}

/** The one line `serve` prints once it has stopped (every backend stopped and its process tree reaped). */
export function stoppedLine(serverCount: number): string {
  return serverCount === 0
    ? 'stopped Switchboard'
    : `stopped Switchboard and ${serverCount === 1 ? 'its server' : `all ${serverCount} servers`} (processes reaped)`;
}

/** What `serve` says once its drain (SIGTERM) is over: settled, or cut at `proxy.drainMs`. */
export function drainedLine(outcome: { unfinished: number; ms: number }): string {
  return outcome.unfinished === 0
    ? `drained in ${outcome.ms} ms: every request in flight was answered`
    : `drain bound (proxy.drainMs) reached after ${outcome.ms} ms: ${outcome.unfinished} request(s) still in flight are cut`;
}
