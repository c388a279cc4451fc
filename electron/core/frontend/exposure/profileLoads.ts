/**
 * `search+load` for 2026-07-28 clients. That era has no session (MCP
 * 2026-07-28: no initialize, no session id), so the tools its searches load
 * belong to the client profile (its token) and are shared by its requests.
 * Its client re-lists only when a `subscriptions/listen` stream asked for
 * `toolsListChanged`: only then does a search load anything.
 */
import { LoadedTools } from './loadedTools.js';

/** Loaded tools, listen streams and change listeners per client profile. */
export class ProfileLoads {
  private readonly loaded = new Map<string, LoadedTools>();
  private readonly listens = new Map<string, number>();
  private readonly listeners = new Set<(client: string) => void>();

  /** A profile's loaded tools. */
  of(client: string): LoadedTools {
    let loaded = this.loaded.get(client);
    if (!loaded) this.loaded.set(client, (loaded = new LoadedTools()));
    return loaded;
  }

  /** Counts a listen stream of the profile that asked for tools/list_changed; returns the call that ends it. */
  listen(client: string): () => void {
    this.listens.set(client, (this.listens.get(client) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.listens.get(client) ?? 1) - 1;
      if (left === 0) this.listens.delete(client);
      else this.listens.set(client, left);
    };
  }

  /** Whether the profile has a listen stream that hears tools/list_changed. */
  listening(client: string): boolean {
    return this.listens.has(client);
  }

  /** Calls `listener` with the profile whose loaded tools changed; returns the unsubscribe. */
  onChange(listener: (client: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells the listeners a profile's loaded tools changed. */
  changed(client: string): void {
    for (const listener of this.listeners) listener(client);
  }
}
