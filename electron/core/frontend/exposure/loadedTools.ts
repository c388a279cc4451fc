/**
 * The tools one session found with `search_tools` under `search+load`, which
 * join that session's own tools/list so its client calls them natively. At
 * most `MAX_LOADED_TOOLS`; past that the least recently used (found again or
 * called) is dropped. Listed in the order they were first loaded, so using a
 * tool again does not reorder the list (and does not change it at all).
 */

/** The most tools one session has loaded. */
export const MAX_LOADED_TOOLS = 32;

/** One session's loaded tools (catalog names). */
export class LoadedTools {
  /** Catalog name -> when it was last used; Map order is the order of first loading. */
  private readonly used = new Map<string, number>();
  private clock = 0;

  constructor(readonly cap = MAX_LOADED_TOOLS) {}

  /** The loaded tools, in the order they were first loaded. */
  names(): string[] {
    return [...this.used.keys()];
  }

  /** Number of loaded tools. */
  get size(): number {
    return this.used.size;
  }

  /**
   * Loads the tools of one search, best first: each becomes used now (the best
   * most recently), and tools past the cap are dropped, least recently used
   * first. Returns whether the set of loaded tools changed.
   */
  load(ranked: readonly string[]): boolean {
    let changed = false;
    for (const name of [...ranked].reverse()) {
      if (!this.used.has(name)) {
        changed = true;
        if (this.used.size >= this.cap) this.used.delete(this.leastRecentlyUsed());
      }
      this.used.set(name, ++this.clock);
    }
    return changed;
  }

  /** Marks a loaded tool as used (a native call of it); other names are ignored. */
  touch(name: string): void {
    if (this.used.has(name)) this.used.set(name, ++this.clock);
  }

  private leastRecentlyUsed(): string {
    let oldest: string | undefined;
    let at = Infinity;
    for (const [name, time] of this.used) {
      if (time < at) {
        at = time;
        oldest = name;
      }
    }
    return oldest!;
  }
}
