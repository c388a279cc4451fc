/**
 * A tiny typed event emitter: the core's events are invalidations (something
 * changed; re-read it), never payloads to keep in sync.
 */

/** Listener bookkeeping for an event map `{ name: payload }`. */
export class TypedEmitter<Events extends Record<string, unknown>> {
  private readonly listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  /** Subscribes; returns the function that unsubscribes. */
  on<K extends keyof Events>(event: K, listener: (payload: Events[K]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) {
      set = new Set();
      this.listeners.set(event, set);
    }
    set.add(listener as (payload: never) => void);
    return () => set.delete(listener as (payload: never) => void);
  }

  /** Calls every listener; a throwing listener does not stop the others. */
  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (payload: Events[K]) => void)(payload);
      } catch (error) {
        console.error(`listener for ${String(event)} failed:`, error);
      }
    }
  }
}
