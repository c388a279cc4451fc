/**
 * Tool pinning: the first definition a backend serves for a tool is pinned
 * (by hash, with the definition kept so the UI can show old vs new). A later,
 * different definition is withheld as a pending change until the user
 * approves it, so a backend cannot silently swap what a tool claims to do
 * after it was trusted. Pins persist in one JSON file; pending changes do not
 * need to, since the next review finds them again.
 *
 * The per-backend switch (`policy.backends.<id>.pinning: false`) lives with
 * the caller: it simply does not review that backend's tools.
 */
import { readFile } from 'node:fs/promises';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { fileWriter, type AtomicWriter } from '../../platform/config/configStore.js';
import type { AuditEntry } from './auditLog.js';
import { definitionHash, pinnedFields, type PinnedDefinition } from '../definitionHash.js';
import { formatPins, parsePins, type PinRecord } from './pinFile.js';

export { definitionHash };
export type { PinnedDefinition, PinRecord };

/**
 * A tool whose served definition differs from its pin, or a new tool held for
 * the scan's high-severity findings (no pin yet); withheld until approved.
 */
export interface PinChange {
  backend: string;
  tool: string;
  /** The approved definition (absent: a new tool, held rather than pinned at first sight). */
  pinned?: PinRecord | undefined;
  /** The new, unapproved definition. */
  offered: PinRecord;
  detectedAt: string;
}

/** Optional collaborators. */
export interface PinStoreOptions {
  /** Where detected changes and approvals are recorded. */
  audit?: { record(entry: AuditEntry): void };
  /** The atomic file writer (injectable to test a failing disk). */
  writer?: AtomicWriter;
}

/** The user's approved tool definitions, per backend, and the changes awaiting approval. */
export class PinStore {
  private pins = new Map<string, Map<string, PinRecord>>();
  private pending = new Map<string, Map<string, PinChange>>();
  private loaded: Promise<void> | undefined;
  private loadError: unknown;
  /** Operations run one at a time, so each saves a state no other operation is halfway through. */
  private chain: Promise<unknown> = Promise.resolve();

  /** @param file the pin file (JSON, written atomically with mode 0600) */
  constructor(
    readonly file: string,
    private readonly options: PinStoreOptions = {},
  ) {}

  /** Reads the file; a missing file means no pins. A corrupt file throws `config_invalid` and is never overwritten. */
  load(): Promise<void> {
    this.loaded = this.run(() => this.read());
    return this.loaded;
  }

  /**
   * Compares a backend's current tools with its pins: new tools are pinned
   * (and returned in `pinned`), identical ones pass, different ones become
   * changes and are withheld. A tool back at its pinned definition drops its
   * change; changes of tools the backend no longer serves are dropped. Throws
   * `config_unreadable` when new pins cannot be saved (nothing changes then).
   */
  review(
    backend: string,
    tools: PinnedDefinition[],
    options: { hold?: ReadonlySet<string> | ((tool: string) => boolean) } = {},
  ): Promise<{ withheld: Set<string>; pinned: string[]; changes: PinChange[] }> {
    return this.mutate(async () => {
      const now = new Date().toISOString();
      const current = this.pins.get(backend) ?? new Map<string, PinRecord>();
      const next = new Map(current);
      const before = this.pending.get(backend) ?? new Map<string, PinChange>();
      const changes = new Map<string, PinChange>();
      const pinned: string[] = [];
      const { hold } = options;
      const held = (name: string): boolean => (typeof hold === 'function' ? hold(name) : (hold?.has(name) ?? false));
      for (const tool of tools) {
        const definition = pinnedFields(tool);
        const offered: PinRecord = {
          backend,
          tool: tool.name,
          hash: definitionHash(definition),
          definition,
          pinnedAt: now,
        };
        const pin = next.get(tool.name);
        if (!pin && !held(tool.name)) {
          next.set(tool.name, offered);
          pinned.push(tool.name);
        } else if (pin?.hash !== offered.hash) {
          const seen = before.get(tool.name);
          // The same offered definition keeps its first detection (and is audited once).
          changes.set(
            tool.name,
            seen?.offered.hash === offered.hash
              ? seen
              : { backend, tool: tool.name, pinned: pin, offered, detectedAt: now },
          );
        }
      }
      if (pinned.length > 0) await this.save(backend, next);
      this.pins.set(backend, next);
      this.pending.set(backend, changes);
      for (const change of changes.values()) {
        if (before.get(change.tool) !== change) this.audit('pin/changed', change, 'denied');
      }
      return { withheld: new Set(changes.keys()), pinned, changes: [...changes.values()] };
    });
  }

  /** Whether a tool is withheld (a pending change); one half of the policy engine's `WithheldItems`. */
  isWithheld(backend: string, tool: string): boolean {
    return this.pending.get(backend)?.has(tool) ?? false;
  }

  /** Pending changes of every backend, for the UI (old vs new). */
  changes(): PinChange[] {
    return [...this.pending.values()].flatMap((changes) => [...changes.values()]);
  }

  /** Approves a pending change: pins the offered definition and saves. Throws `unknown_change` if none is pending. */
  approve(backend: string, tool: string): Promise<PinRecord> {
    return this.mutate(async () => {
      const change = this.pending.get(backend)?.get(tool);
      if (!change) {
        throw new SwitchboardError(
          ErrorCode.UnknownChange,
          `no pending definition change of tool ${tool} of ${backend}`,
          {
            backend,
            tool,
          },
        );
      }
      const record: PinRecord = { ...change.offered, pinnedAt: new Date().toISOString() };
      const next = new Map(this.pins.get(backend));
      next.set(tool, record);
      await this.save(backend, next);
      this.pins.set(backend, next);
      this.pending.get(backend)?.delete(tool);
      this.audit('pin/approved', change, 'ok');
      return record;
    });
  }

  /**
   * Holds pinned tools as new ones, unpinned (approving a server while holding
   * its flagged tools): each is withheld as a change without an approved
   * definition until approved one by one. A tool not pinned is left as it is.
   */
  hold(backend: string, tools: readonly string[]): Promise<void> {
    return this.mutate(async () => {
      const current = this.pins.get(backend);
      const held = tools.filter((tool) => current?.has(tool));
      if (!current || held.length === 0) return;
      const next = new Map(current);
      const pending = new Map(this.pending.get(backend));
      const now = new Date().toISOString();
      for (const tool of held) {
        const pin = next.get(tool)!;
        next.delete(tool);
        pending.set(tool, { backend, tool, offered: pin, detectedAt: now });
      }
      await this.save(backend, next);
      this.pins.set(backend, next);
      this.pending.set(backend, pending);
    });
  }

  /** Drops every pin and pending change of a removed backend. */
  forget(backend: string): Promise<void> {
    return this.mutate(async () => {
      this.pending.delete(backend);
      if (!this.pins.has(backend)) return;
      await this.save(backend, undefined);
      this.pins.delete(backend);
    });
  }

  private run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.chain.then(task);
    this.chain = result.catch(() => undefined);
    return result;
  }

  /** Runs a change after loading; refuses while the file is corrupt, so it is never overwritten. */
  private mutate<T>(task: () => Promise<T>): Promise<T> {
    this.loaded ??= this.run(() => this.read());
    return this.run(async () => {
      await this.loaded;
      if (this.loadError !== undefined) throw this.loadError;
      return task();
    });
  }

  private async read(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.pins = new Map();
      this.loadError = undefined;
      return;
    }
    try {
      this.pins = parsePins(text, this.file);
    } catch (error) {
      this.loadError = error;
      throw error;
    }
    this.loadError = undefined;
  }

  /** Writes every pin, with `backend`'s replaced by `next` (or removed); memory is updated only after this succeeds. */
  private async save(backend: string, next: Map<string, PinRecord> | undefined): Promise<void> {
    const all = new Map(this.pins);
    if (next) all.set(backend, next);
    else all.delete(backend);
    try {
      await (this.options.writer ?? fileWriter).write(this.file, formatPins(all));
    } catch (error) {
      throw new SwitchboardError(
        ErrorCode.ConfigUnreadable,
        `cannot save ${this.file}: ${error instanceof Error ? error.message : String(error)}; the file was left as it was`,
        { path: this.file },
      );
    }
  }

  private audit(kind: 'pin/changed' | 'pin/approved', change: PinChange, outcome: 'ok' | 'denied'): void {
    this.options.audit?.record({
      time: new Date().toISOString(),
      // Not a client's request: the local user (approval) or the proxy itself (detection).
      client: 'local',
      backend: change.backend,
      kind,
      item: change.tool,
      outcome,
      durationMs: 0,
      detail: `definition ${change.pinned?.hash.slice(0, 12) ?? '(new)'} -> ${change.offered.hash.slice(0, 12)}`,
    });
  }
}
