/**
 * Which tools/list each connected instance (a 2025-era session, a stdio
 * connection, a 2026-07-28 listen stream) last knew, by fingerprint, so
 * `notifications/tools/list_changed` goes only where that client's own list
 * changed: a search-mode client is not told about catalog changes its two
 * meta-tools do not show (MCP 2025-11-25, tools: "the list of available tools
 * has changed").
 */
import type { BoundedBus } from '../http/boundedBus.js';

const known = new WeakMap<object, string>();

/** Records the tools/list fingerprint an instance knows. */
export function rememberToolList(instance: object, fingerprint: string): void {
  known.set(instance, fingerprint);
}

/** Whether the instance's list changed since it last knew it; if so, it now knows the new one. */
export function toolListChanged(instance: object, fingerprint: string): boolean {
  if (known.get(instance) === fingerprint) return false;
  known.set(instance, fingerprint);
  return true;
}

/** Sends `tools/list_changed` to the 2026-07-28 listen streams whose client's list changed since they knew it. */
export function publishToolListChanged(bus: BoundedBus, fingerprint: (client: string) => string): void {
  bus.publish({ kind: 'tools_list_changed' }, (stream) => {
    // A stream first knows the list as it was when it started listening.
    if (!known.has(stream)) known.set(stream, stream.tools);
    return toolListChanged(stream, fingerprint(stream.client));
  });
}
