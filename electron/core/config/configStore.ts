/**
 * The config file as a store: edits made through the core (add, remove, edit a
 * backend) are written atomically (temp file, fsync, rename), so a crash or a
 * failed write leaves the previous file intact; hand edits are picked up by
 * watching the file's directory (editors replace files rather than write them).
 */
import { randomBytes } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ErrorCode, SwitchboardError } from '../../../shared/errors.js';
import { formatProblems, parseJsonText } from './load.js';
import { parseConfig, type SwitchboardConfig } from './schema.js';

/** The file-system steps of an atomic write, injectable to test a failing disk. */
export interface AtomicWriter {
  write(path: string, text: string): Promise<void>;
}

/** Writes `text` to a sibling temp file, flushes it, then renames it over `path`. */
export const fileWriter: AtomicWriter = {
  async write(path, text) {
    await mkdir(dirname(path), { recursive: true });
    const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await open(temp, 'w', 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  },
};

/** A validated config read from disk, with the raw entries to compare edits against. */
export interface StoredConfig {
  config: SwitchboardConfig;
  /** Each backend's raw entry, as JSON text, by ID. */
  entries: Map<string, string>;
  /** The proxy section, as JSON text. */
  proxy: string;
}

/** Reads, writes and watches one config file. */
export class ConfigStore {
  /** The parsed JSON document, kept so edits preserve every other key and their order. */
  private document: Record<string, unknown> = {};
  /** The text last read or written by us: a watch event with this content is our own. */
  private lastText: string | undefined;
  private watcher: FSWatcher | undefined;
  private debounce: NodeJS.Timeout | undefined;

  constructor(
    readonly path: string,
    private readonly writer: AtomicWriter = fileWriter,
  ) {}

  /** Loads the file; a missing file is an empty config. Throws `config_invalid` naming each problem. */
  async load(): Promise<StoredConfig> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      text = '{}';
    }
    return this.parse(text);
  }

  private parse(text: string): StoredConfig {
    const json = parseJsonText(text);
    const problems = json.problem ? [json.problem] : [];
    const parsed = problems.length === 0 ? parseConfig(json.value) : { problems };
    if (!parsed.config) {
      throw new SwitchboardError(ErrorCode.ConfigInvalid, formatProblems(this.path, parsed.problems).join('\n'), {
        path: this.path,
        problems: parsed.problems,
      });
    }
    this.document = json.value as Record<string, unknown>;
    this.lastText = text;
    const servers = (this.document['mcpServers'] ?? {}) as Record<string, unknown>;
    return {
      config: parsed.config,
      entries: new Map(Object.entries(servers).map(([id, entry]) => [id, JSON.stringify(entry)])),
      proxy: JSON.stringify(this.document['proxy'] ?? {}),
    };
  }

  /**
   * Applies `mutate` to the `mcpServers` object and writes the file atomically.
   * On a failed write the file and the in-memory document stay as they were.
   */
  async updateServers(mutate: (servers: Record<string, unknown>) => void): Promise<void> {
    await this.updateSection('mcpServers', (section) => {
      mutate(section);
      return section;
    });
  }

  /**
   * Replaces one top-level section (`mcpServers`, `policy`) with what `mutate`
   * returns from a copy of it, and writes the file atomically; every other key
   * keeps its value and place. On a failed write nothing changes.
   */
  async updateSection(
    key: string,
    mutate: (section: Record<string, unknown>) => Record<string, unknown>,
  ): Promise<void> {
    const section = mutate(structuredClone((this.document[key] ?? {}) as Record<string, unknown>));
    const next: Record<string, unknown> = { version: 1, ...this.document, [key]: section };
    const text = `${JSON.stringify(next, null, 2)}\n`;
    try {
      await this.writer.write(this.path, text);
    } catch (error) {
      throw new SwitchboardError(
        ErrorCode.ConfigUnreadable,
        `cannot save ${this.path}: ${error instanceof Error ? error.message : String(error)}; the file was left as it was`,
        { path: this.path },
      );
    }
    this.document = next;
    this.lastText = text;
  }

  /**
   * Calls `onChange` with the new config when someone else edits the file, or
   * `onError` when the edit does not validate (the running config stays).
   */
  watch(onChange: (stored: StoredConfig) => void, onError: (error: unknown) => void): void {
    this.unwatch();
    const directory = dirname(this.path);
    const name = basename(this.path);
    try {
      this.watcher = watch(directory, { persistent: false }, (_event, file) => {
        if (file !== null && file !== name) return;
        if (this.debounce) clearTimeout(this.debounce);
        this.debounce = setTimeout(() => void this.reread(onChange, onError), 150);
      });
      this.watcher.on('error', onError);
    } catch (error) {
      onError(error);
    }
  }

  private async reread(onChange: (stored: StoredConfig) => void, onError: (error: unknown) => void): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // mid-replace, or removed: keep running
      onError(error);
      return;
    }
    if (text === this.lastText) return;
    try {
      onChange(this.parse(text));
    } catch (error) {
      this.lastText = text;
      onError(error);
    }
  }

  /** Stops watching. */
  unwatch(): void {
    if (this.debounce) clearTimeout(this.debounce);
    this.watcher?.close();
    this.watcher = undefined;
  }
}
