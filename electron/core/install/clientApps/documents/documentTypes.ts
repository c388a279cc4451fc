/**
 * What install, uninstall and import need from a client's config file,
 * whatever its syntax (JSON, JSONC, TOML): read the map of servers, and set
 * or remove one entry while leaving every other byte alone.
 */

/** Where a file fails to parse (1-based). */
export interface DocumentProblem {
  line: number;
  column: number;
  message: string;
}

/** A parsed client config held as text, edited one entry at a time. */
export interface ConfigDocument {
  /** The current text. */
  toString(): string;
  /** The top-level table `container` (e.g. `mcpServers`) as plain data, or undefined if absent. */
  getContainer(container: string): Record<string, unknown> | undefined;
  /** Whether the top-level `container` is absent, an object/table, or something else (then we refuse to edit). */
  containerKind(container: string): 'absent' | 'object' | 'other';
  /** Adds or replaces `container.key`, creating the container if needed. */
  setEntry(container: string, key: string, value: unknown): void;
  /**
   * Removes `container.key`; with `removeEmptyContainer`, the container too
   * when that entry was its only member. Returns false if there was no such entry.
   */
  removeEntry(container: string, key: string, removeEmptyContainer: boolean): boolean;
}
