/**
 * The config file as a store. Every write is a patch: under the file's
 * cross-process lock (configLock.ts) it re-reads the file, applies only its
 * own change to what it finds (configPatch.ts: the user's layout, key order
 * and other keys stay), validates the result, keeps the previous file as a
 * backup (configBackups.ts) and writes atomically (temp file, fsync,
 * rename). A file holding an edit that does not parse is never overwritten.
 * Whenever the file comes to keep a secret in the keychain that backups still
 * hold in plain text, the backups are rewritten without it (backupSecrets.ts).
 * Hand edits, and writes of other processes, are picked up by watching the
 * file's directory (editors replace files rather than write them). A file
 * mounted read-only (configReadOnly.ts) is read and watched, never written:
 * changes are refused at once with `config_read_only`.
 */
import { watch, type FSWatcher } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { fileWriter, type AtomicWriter } from './atomicWriter.js';
import { scrubMovedSecrets } from './backupSecrets.js';
import { keepBackup, listBackups, readBackup, type ConfigBackup } from './configBackups.js';
import { removeStaleTemps, withFileLock } from './configLock.js';
import { readOnlyReason, readOnlyRefusal } from './configReadOnly.js';
import { applyPathEdits, diffPaths } from './configPatch.js';
import { defaultStateDir } from './paths.js';
import { parseStoredConfig, readConfigText, unparsedRefusal, type StoredConfig } from './storedConfig.js';

export { fileWriter, type AtomicWriter } from './atomicWriter.js';
export type { StoredConfig } from './storedConfig.js';

/** Reads, patches and watches one config file. */
export class ConfigStore {
  /** The text last read or written by us: a watch event with this content is our own. */
  private lastText: string | undefined;
  private watcher: FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;
  /** The pending re-read must apply even an unchanged text (it follows a write of ours). */
  private forced = false;
  private listeners: { onChange: (stored: StoredConfig) => void; onError: (error: unknown) => void } | undefined;
  /** This process's writes and re-reads, one at a time (other processes wait on the file lock). */
  private queue: Promise<unknown> = Promise.resolve();
  /** Where backups go. */
  readonly stateDir: string;

  constructor(
    readonly path: string,
    private readonly writer: AtomicWriter = fileWriter,
    options: { stateDir?: string } = {},
  ) {
    this.stateDir = options.stateDir ?? defaultStateDir();
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The text on disk, or undefined when there is no file. */
  private readText(): Promise<string | undefined> {
    return readConfigText(this.path);
  }

  /** Reads and validates the file (a missing file is an empty config); throws `config_invalid` naming each problem. */
  async read(): Promise<StoredConfig> {
    return this.parse((await this.readText()) ?? '{}');
  }

  /**
   * Like {@link read}, and remembers the text so the watcher knows it (at
   * start); backups still holding a secret the file keeps in the keychain
   * (a hand edit while nothing ran) are rewritten.
   */
  async load(): Promise<StoredConfig> {
    const text = (await this.readText()) ?? '{}';
    const stored = this.parse(text);
    this.lastText = text;
    await this.scrubBackupsLocked(text);
    return stored;
  }

  /**
   * Why this file cannot be changed here (mounted read-only), or undefined when it can. Asked
   * before every write, so a refusal comes at once instead of after the lock's retries.
   */
  readOnly(): Promise<string | undefined> {
    return readOnlyReason(this.path);
  }

  /** Throws `config_read_only` when the file cannot be changed here. */
  private async refuseReadOnly(): Promise<void> {
    const reason = await this.readOnly();
    if (reason !== undefined) throw readOnlyRefusal(this.path, reason);
  }

  /** {@link scrubBackups} for a text read outside the lock (at start, or seen by the watcher). */
  private async scrubBackupsLocked(text: string): Promise<void> {
    if (!text.includes('"secret"')) return; // refers to no keychain secret: no lock to take
    // A read-only file was never written by us: no backup of ours can hold what it moved.
    if ((await this.readOnly()) !== undefined) return;
    try {
      await withFileLock(this.path, () => this.scrubBackups(text));
    } catch (error) {
      this.reportScrubFailure(error);
    }
  }

  /**
   * Rewrites the backups that hold a value `text` (the file now) keeps in the
   * keychain (backupSecrets.ts); under the lock. A failure is reported, never
   * thrown: the write it follows is done.
   */
  private async scrubBackups(text: string): Promise<void> {
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      return; // an edit that does not parse yet refers to nothing
    }
    try {
      await scrubMovedSecrets(this.stateDir, this.path, document, this.writer);
    } catch (error) {
      this.reportScrubFailure(error);
    }
  }

  /** Said where config problems are said (the UI's banner, the log); the write it followed stands. */
  private reportScrubFailure(error: unknown): void {
    const reason = error instanceof Error ? error.message : String(error);
    this.listeners?.onError(
      new SwitchboardError(
        ErrorCode.ConfigUnreadable,
        `cannot rewrite the backups of ${this.path} without the secrets moved to the keychain: ${reason}`,
        { path: this.path },
      ),
    );
  }

  /**
   * What is wrong with the file on disk now, for the UI's banner: an edit that
   * does not parse yet (the message writes are refused with), or the problems
   * that refuse it; undefined when it is fine.
   */
  async problem(): Promise<string | undefined> {
    try {
      const text = await this.readText();
      const unparsed = this.unparsed(text);
      if (unparsed) return unparsed.message;
      this.parse(text ?? '{}');
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /** Removes temp files a killed writer left beside the config (at start; under the lock). */
  async removeStaleTemps(): Promise<string[]> {
    // Nothing writes beside a read-only file, so nothing can be left there (and no lock can be made).
    if ((await this.readOnly()) !== undefined) return [];
    return removeStaleTemps(this.path);
  }

  private parse(text: string): StoredConfig {
    return parseStoredConfig(this.path, text);
  }

  private unparsed(text: string | undefined): SwitchboardError | undefined {
    return unparsedRefusal(this.path, text);
  }

  /**
   * Changes the file: `mutate` gets the document as it is on disk now (read
   * under the lock) and changes it in place; only what it changed is written
   * back. Refused, with nothing written, when the file does not parse
   * (`config_unparsed`, naming line and column) or the result does not
   * validate (`config_invalid`); a failed write (`config_unreadable`) leaves
   * the file as it was. Resolves once the new file is in place.
   */
  async change(mutate: (document: Record<string, unknown>) => void, signal?: AbortSignal): Promise<void> {
    await this.refuseReadOnly();
    await this.serial(() =>
      withFileLock(
        this.path,
        async () => {
          const text = await this.readText();
          const unparsed = this.unparsed(text);
          // The running core says so too (the UI's banner), as for a hand edit it could not apply.
          if (unparsed) this.listeners?.onError(unparsed);
          if (unparsed) throw unparsed;
          const before = text === undefined || text.trim() === '' ? {} : (JSON.parse(text) as unknown);
          if (before === null || typeof before !== 'object' || Array.isArray(before)) {
            throw new SwitchboardError(ErrorCode.ConfigInvalid, `${this.path}: the top level is not an object`, {
              path: this.path,
            });
          }
          const after = structuredClone(before as Record<string, unknown>);
          mutate(after);
          const edits = diffPaths(before, after);
          if (edits.length === 0) return;
          const next = applyPathEdits(text, edits);
          this.parse(next); // throws config_invalid: nothing is written
          if (text !== undefined) await keepBackup(this.stateDir, this.path, text);
          await this.writeText(next);
          await this.scrubBackups(next);
          // Up to date before this write: the watcher may skip it. Else the re-read applies what others wrote too.
          if (text === this.lastText) this.lastText = next;
        },
        signal,
      ),
    );
    this.schedule(true);
  }

  /** Writes through a symlink to its target (the link stays); errors as `config_unreadable`. */
  private async writeText(text: string): Promise<void> {
    const target = await realpath(this.path).catch(() => this.path);
    try {
      await this.writer.write(target, text);
    } catch (error) {
      throw new SwitchboardError(
        ErrorCode.ConfigUnreadable,
        `cannot save ${this.path}: ${error instanceof Error ? error.message : String(error)}; the file was left as it was`,
        { path: this.path },
      );
    }
  }

  /** Applies `mutate` to the `mcpServers` object as it is on disk (see {@link change}). */
  async updateServers(mutate: (servers: Record<string, unknown>) => void): Promise<void> {
    await this.updateSection('mcpServers', (section) => {
      mutate(section);
      return section;
    });
  }

  /**
   * Replaces one top-level section (`mcpServers`, `policy`) with what `mutate`
   * returns from a copy of it as it is on disk; only the members that differ
   * are written (see {@link change}).
   */
  async updateSection(
    key: string,
    mutate: (section: Record<string, unknown>) => Record<string, unknown>,
  ): Promise<void> {
    await this.change((document) => {
      document[key] = mutate(structuredClone((document[key] ?? {}) as Record<string, unknown>));
    });
  }

  /** The kept backups of this file, newest first. */
  backups(): Promise<ConfigBackup[]> {
    return listBackups(this.stateDir, this.path);
  }

  /**
   * Puts backup `index` (1: the newest) back, through the lock and atomically;
   * the file it replaces becomes the newest backup (so a restore can be undone),
   * even when it does not parse. A backup that does not validate is refused.
   */
  async restore(index = 1): Promise<ConfigBackup> {
    await this.refuseReadOnly();
    const restored = await this.serial(() =>
      withFileLock(this.path, async () => {
        const backup = await readBackup(this.stateDir, this.path, index);
        this.parse(backup.text);
        const current = await this.readText();
        if (current !== undefined) await keepBackup(this.stateDir, this.path, current);
        await this.writeText(backup.text);
        await this.scrubBackups(backup.text);
        return backup;
      }),
    );
    this.schedule(true);
    return { index: restored.index, path: restored.path, savedAt: restored.savedAt, size: restored.size };
  }

  /**
   * Calls `onChange` with the new config when the file changes (a hand edit,
   * another process, or a write of ours that others' changes went into), or
   * `onError` when what is there does not validate (the running config stays).
   */
  watch(onChange: (stored: StoredConfig) => void, onError: (error: unknown) => void): void {
    this.unwatch();
    this.listeners = { onChange, onError };
    const directory = dirname(this.path);
    const name = basename(this.path);
    try {
      this.watcher = watch(directory, { persistent: false }, (_event, file) => {
        // A Kubernetes ConfigMap's file is a link through `..data`, which an update swaps.
        if (file !== null && file !== name && file !== '..data') return;
        this.schedule(false);
      });
      this.watcher.on('error', onError);
    } catch (error) {
      onError(error);
    }
  }

  /** Re-reads soon (coalescing bursts); `force` even when the text is the one we know. */
  private schedule(force: boolean): void {
    if (!this.listeners) return;
    if (this.debounce) clearTimeout(this.debounce);
    const forced = force || this.forced;
    this.forced = forced;
    this.debounce = setTimeout(() => {
      this.forced = false;
      void this.serial(() => this.reread(forced));
    }, 150);
  }

  private async reread(force: boolean): Promise<void> {
    const listeners = this.listeners;
    if (!listeners) return;
    let text: string | undefined;
    try {
      text = await this.readText();
    } catch (error) {
      listeners.onError(error);
      return;
    }
    if (text === undefined) return; // mid-replace, or removed: keep running
    if (text === this.lastText && !force) return;
    const edited = text !== this.lastText;
    this.lastText = text;
    // A hand edit or another process may have moved a secret to the keychain.
    if (edited) await this.scrubBackupsLocked(text);
    try {
      listeners.onChange(this.parse(text));
    } catch (error) {
      listeners.onError(error);
    }
  }

  /** Stops watching. */
  unwatch(): void {
    if (this.debounce) clearTimeout(this.debounce);
    this.watcher?.close();
    this.watcher = undefined;
    this.listeners = undefined;
  }
}
