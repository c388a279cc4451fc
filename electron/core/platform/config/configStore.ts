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
 * file's directory (editors replace files rather than write them).
 *
 * Replicas (a `cluster` section) share the document instead (`share()`,
 * sharedConfigDocument.ts): the file is its seed, reads and writes go to
 * Redis, a write is a compare-and-set on the document's version rather than
 * a file lock, and a notice from another replica makes it re-read. The file
 * is still watched: a hand edit or a CLI command that writes it is applied to
 * the shared document as a patch (only what changed in the file). While Redis
 * cannot be reached a change is refused and the running config stays. A file
 * mounted read-only (configReadOnly.ts) is read and watched, never written:
 * without a cluster, changes are refused at once with `config_read_only`;
 * with one, the shared document takes them (the file stays the seed).
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
import { applyPathEdits, diffPaths, type PathEdit } from './configPatch.js';
import { defaultStateDir } from './paths.js';
import { parseStoredConfig, readConfigText, unparsedRefusal, type StoredConfig } from './storedConfig.js';
import type { SharedConfigDocument } from './sharedConfigDocument.js';

/** How many times a shared write is tried again after another replica wrote first. */
const SHARED_WRITE_ATTEMPTS = 5;

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
  /** The document replicas share, when this is one of them (see the module comment). */
  private shared: SharedConfigDocument | undefined;
  private unfollow: (() => void) | undefined;
  /** Shared: the file's text as last applied to the shared document (a file edit is its difference from this). */
  private fileText: string | undefined;
  private fileDebounce: NodeJS.Timeout | undefined;
  /** Shared: whether this replica has offered its file as the seed yet (see SharedConfigDocument.seed). */
  private seeded = false;

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

  /** The text on disk (or, shared, in Redis), or undefined when there is none. */
  private async readText(): Promise<string | undefined> {
    if (!this.shared) return readConfigText(this.path);
    return (await this.readShared()).text;
  }

  /** The shared document now; a Redis failure as `config_unreadable`, saying that nothing changed. */
  private async readShared(): Promise<{ text: string | undefined; version: number }> {
    try {
      // Seeded before anything is read or written (Redis away at start: when it returns), never an empty document.
      if (!this.seeded) await this.shared!.seed(this.fileText ?? '{}');
      this.seeded = true;
      const document = await this.shared!.read();
      return document ?? { text: undefined, version: 0 };
    } catch (error) {
      throw this.unreachable(error);
    }
  }

  private unreachable(error: unknown): SwitchboardError {
    const reason = error instanceof Error ? error.message : String(error);
    return new SwitchboardError(
      ErrorCode.ConfigUnreadable,
      `the config is shared by the replicas through Redis, which this replica cannot reach now (${reason}): nothing was changed; this replica keeps serving the config it has; try again when Redis is back`,
      { path: this.path, shared: true },
    );
  }

  /**
   * Makes this store one replica's view of the shared document: seeds it from
   * the file (see SharedConfigDocument.seed) and resolves to the document in
   * force, or to the file's config while Redis cannot be reached (the store
   * catches up when it returns).
   */
  async share(document: SharedConfigDocument, onUnreachable: (error: unknown) => void): Promise<StoredConfig> {
    const fileText = (await readConfigText(this.path)) ?? '{}';
    this.shared = document;
    this.fileText = fileText;
    try {
      return await this.load();
    } catch (error) {
      onUnreachable(error);
      this.lastText = fileText;
      return this.parse(fileText);
    }
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

  /** Throws `config_read_only` when the file cannot be changed here (replicas change the shared document instead). */
  private async refuseReadOnly(): Promise<void> {
    if (this.shared) return;
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
      this.shared
        ? this.changeShared(mutate)
        : withFileLock(
            this.path,
            async () => {
              const text = await this.readText();
              const next = this.patched(text, mutate);
              if (next === undefined) return;
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

  /**
   * `text` with `mutate`'s change applied (only what it changed), or
   * undefined when it changed nothing; refuses a text that does not parse and
   * a result that does not validate.
   */
  private patched(text: string | undefined, mutate: (document: Record<string, unknown>) => void): string | undefined {
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
    if (edits.length === 0) return undefined;
    const next = applyPathEdits(text, edits);
    this.parse(next); // throws config_invalid: nothing is written
    return next;
  }

  /** {@link change} on the shared document: compare-and-set, applied again on what another replica wrote first. */
  private async changeShared(mutate: (document: Record<string, unknown>) => void): Promise<void> {
    for (let attempt = 0; attempt < SHARED_WRITE_ATTEMPTS; attempt++) {
      const { text, version } = await this.readShared();
      const next = this.patched(text, mutate);
      if (next === undefined) return;
      if (await this.writeShared(next, version)) {
        if (text !== undefined) await keepBackup(this.stateDir, this.path, text);
        if (text === this.lastText) this.lastText = next;
        return;
      }
    }
    throw new SwitchboardError(
      ErrorCode.ConfigUnreadable,
      `the shared config kept changing under this write (${SHARED_WRITE_ATTEMPTS} attempts): nothing was changed; try again`,
      { path: this.path, shared: true },
    );
  }

  /** Compare-and-set of the shared document; false when another replica wrote first. */
  private async writeShared(text: string, version: number): Promise<boolean> {
    try {
      return (await this.shared!.write(text, version)) !== undefined;
    } catch (error) {
      throw this.unreachable(error);
    }
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
      this.shared
        ? this.restoreShared(index)
        : withFileLock(this.path, async () => {
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

  /** {@link restore} on the shared document (this replica's backups of it). */
  private async restoreShared(index: number): Promise<ConfigBackup> {
    const backup = await readBackup(this.stateDir, this.path, index);
    this.parse(backup.text);
    const { text, version } = await this.readShared();
    if (!(await this.writeShared(backup.text, version))) {
      throw new SwitchboardError(
        ErrorCode.ConfigUnreadable,
        'the shared config changed meanwhile: nothing was restored; try again',
        {
          path: this.path,
          shared: true,
        },
      );
    }
    if (text !== undefined) await keepBackup(this.stateDir, this.path, text);
    return backup;
  }

  /**
   * Calls `onChange` with the new config when the file changes (a hand edit,
   * another process, or a write of ours that others' changes went into), or
   * `onError` when what is there does not validate (the running config stays).
   */
  watch(onChange: (stored: StoredConfig) => void, onError: (error: unknown) => void): void {
    this.unwatch();
    this.listeners = { onChange, onError };
    if (this.shared) this.unfollow = this.shared.onChange(() => this.schedule(false));
    const directory = dirname(this.path);
    const name = basename(this.path);
    try {
      this.watcher = watch(directory, { persistent: false }, (_event, file) => {
        // A Kubernetes ConfigMap's file is a link through `..data`, which an update swaps.
        if (file !== null && file !== name && file !== '..data') return;
        if (this.shared) this.scheduleFileEdit();
        else this.schedule(false);
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

  /** Shared: applies an edit of the file to the shared document soon (coalescing bursts). */
  private scheduleFileEdit(): void {
    if (this.fileDebounce) clearTimeout(this.fileDebounce);
    this.fileDebounce = setTimeout(() => void this.serial(() => this.applyFileEdit()), 150);
  }

  /**
   * Shared: what changed in the file since it was last applied goes to the
   * shared document as a patch (what other replicas changed meanwhile
   * stays). A file that does not validate, or Redis away, is reported and the
   * edit is applied with the next one.
   */
  private async applyFileEdit(): Promise<void> {
    const listeners = this.listeners;
    if (!listeners) return;
    try {
      const text = await readConfigText(this.path);
      if (text === undefined || text === this.fileText) return;
      this.parse(text); // throws config_invalid: the edit waits for a valid file
      const edits = diffPaths(JSON.parse(this.fileText ?? '{}'), JSON.parse(text));
      await this.changeShared((document) => applyEdits(document, edits));
      // Restarted with this file, this replica (or another) does not seed it again over the others' changes.
      await this.shared!.applied(text).catch((error: unknown) => {
        throw this.unreachable(error);
      });
      this.fileText = text;
      this.schedule(true);
    } catch (error) {
      listeners.onError(error);
    }
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
    if (this.fileDebounce) clearTimeout(this.fileDebounce);
    this.watcher?.close();
    this.watcher = undefined;
    this.unfollow?.();
    this.unfollow = undefined;
    this.listeners = undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Sets (or, for `value` undefined, removes) each edit's member in `document`,
 * making the objects on its path. An object set where the document has one
 * already is merged into it member by member: what the file added does not
 * drop what other replicas added beside it.
 */
function applyEdits(document: Record<string, unknown>, edits: readonly PathEdit[]): void {
  for (const { path, value } of edits) {
    if (path.length === 0) continue;
    let parent = document;
    for (const key of path.slice(0, -1)) {
      if (!isObject(parent[String(key)])) parent[String(key)] = {};
      parent = parent[String(key)] as Record<string, unknown>;
    }
    const last = String(path.at(-1));
    if (value === undefined) delete parent[last];
    else parent[last] = merged(parent[last], value);
  }
}

function merged(existing: unknown, value: unknown): unknown {
  if (!isObject(existing) || !isObject(value)) return structuredClone(value);
  const result = { ...existing };
  for (const [key, member] of Object.entries(value)) result[key] = merged(existing[key], member);
  return result;
}
