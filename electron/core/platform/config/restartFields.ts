/**
 * Which settings an edit of the config file applies at once and which wait
 * for the next start. Backends and the policy (group and principal bindings
 * included) apply live elsewhere (switchboard/backendChanges.ts); of the
 * sections read at start (`proxy`, `gateway`, `observability`, `cluster`),
 * the few fields below apply live too, and a change to any other field is
 * named (a path, never a value) so `/readyz`, the UI and the log can say a
 * restart is needed instead of the edit silently doing nothing.
 */
import type { GatewayConfig } from './gatewayConfig.js';
import type { SwitchboardConfig } from './schema.js';

/** The sections read at start. */
const START_SECTIONS = ['proxy', 'gateway', 'observability', 'cluster'] as const;

/**
 * Fields of those sections that apply without a restart: the PATH of stdio
 * servers (platform/env/stdioPath.ts), the gateway's default profile and its
 * administrators (read on each request or sign-in through `liveGateway`).
 */
export const LIVE_FIELDS: readonly string[] = [
  'proxy.extraPath',
  'gateway.defaultProfile',
  'gateway.ui.adminGroups',
  'gateway.ui.adminPrincipals',
];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The paths under `path` where `before` and `after` differ, down to the live fields' depth. */
function changedPaths(path: string, before: unknown, after: unknown, out: string[]): void {
  if (same(before, after)) return;
  const descend = LIVE_FIELDS.some((field) => field.startsWith(`${path}.`));
  if (!descend || !isRecord(before) || !isRecord(after)) {
    if (!LIVE_FIELDS.includes(path)) out.push(path);
    return;
  }
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    changedPaths(`${path}.${key}`, before[key], after[key], out);
  }
}

/** The fields `stored` changes, against the config the process started with, that need a restart (sorted). */
export function restartFields(started: SwitchboardConfig, stored: SwitchboardConfig): string[] {
  const out: string[] = [];
  for (const section of START_SECTIONS) changedPaths(section, started[section], stored[section], out);
  return out.sort();
}

/**
 * The gateway section in force after an edit: the one the process started
 * with, with the live fields taken from `stored` (undefined when gateway mode
 * is off; turning it on or off needs a restart).
 */
export function liveGateway(
  started: GatewayConfig | undefined,
  stored: GatewayConfig | undefined,
): GatewayConfig | undefined {
  if (!started || !stored) return started;
  const { defaultProfile: _startedDefault, ...rest } = started;
  const ui = started.ui &&
    stored.ui && { ...started.ui, adminGroups: stored.ui.adminGroups, adminPrincipals: stored.ui.adminPrincipals };
  return {
    ...rest,
    ...(stored.defaultProfile !== undefined ? { defaultProfile: stored.defaultProfile } : {}),
    ...(ui ? { ui } : {}),
  };
}
