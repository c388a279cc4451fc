/**
 * The config document replicas share (a `cluster` section): one text with a
 * version, in Redis (platform/cluster/redisConfigDocument.ts). The config
 * store writes it by compare-and-set on the version, so two replicas' writes
 * never lose one another (the loser re-reads and applies its change again),
 * and every write is announced, so each replica re-reads it within a moment.
 * The file stays the seed: the config a replica was started with (a
 * read-only ConfigMap on Kubernetes) is copied in when no replica has seeded
 * that same file yet (nor applied it as an edit since). Only the interface lives here: config/ never imports
 * the cluster.
 */

/** The document as Redis holds it now. */
export interface SharedText {
  text: string;
  version: number;
}

/** One deployment's shared config document. */
export interface SharedConfigDocument {
  /** The document, or undefined when none was seeded yet; rejects while Redis is unreachable. */
  read(): Promise<SharedText | undefined>;
  /**
   * Writes `text` if the document is still at `version` (0: none yet) and
   * announces it; resolves to the new version, or undefined when another
   * replica wrote first. Rejects while Redis is unreachable (nothing written).
   */
  write(text: string, version: number): Promise<number | undefined>;
  /**
   * Copies the file's text in unless this very file was the last seed (a
   * restart keeps the edits made since; a new file replaces them). Resolves
   * to whether it wrote.
   */
  seed(fileText: string): Promise<boolean>;
  /**
   * Records that an edit of a replica's file (by hand, or a CLI command) was
   * applied to the document as a patch: a replica (re)started with this very
   * file does not seed it again, which would drop every change made beside
   * it. Forgotten at the next seed.
   */
  applied(fileText: string): Promise<void>;
  /** Calls `listener` when another write was announced, or Redis came back (changes may have been missed). */
  onChange(listener: () => void): () => void;
}
