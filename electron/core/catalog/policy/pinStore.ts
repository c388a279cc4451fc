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
 *
 * Replicas (`share`): the pins live in Redis and the file is this replica's
 * copy. A tool seen for the first time is pinned there only where no replica
 * pinned it yet (the first sight across the cluster wins); an approval or a
 * hold is written there and announced, and every replica reads that
 * backend's pins again, reviews the tools it last listed against them and
 * tells `onChange`. With Redis away, first sights are pinned here alone and
 * shared when it answers again; an approval is refused meanwhile.
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

/** The pins as replicas share them (catalog/policy/redisReviewState.ts). */
export interface SharedPins {
  /** Every backend's pins. Rejects while Redis is away. */
  loadAll(): Promise<Map<string, Map<string, PinRecord>>>;
  /** One backend's pins. */
  read(backend: string): Promise<Map<string, PinRecord>>;
  /** Pins `records` where no replica pinned that tool yet (announced if any was); the backend's pins after. */
  pinFirst(backend: string, records: readonly PinRecord[]): Promise<Map<string, PinRecord>>;
  /** Pins `record` whatever was pinned (an approval), and announces it. */
  set(backend: string, record: PinRecord): Promise<void>;
  /** Unpins `tools` (undefined: every tool of the backend), and announces it. */
  remove(backend: string, tools?: readonly string[]): Promise<void>;
  /** Calls `listener` with a backend whose pins changed, or undefined when Redis answers again (read all). */
  onChange(listener: (backend: string | undefined) => void): () => void;
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
  private shared: SharedPins | undefined;
  /** What each backend listed last, and what it held: reviewed again when another replica changes its pins. */
  private readonly listed = new Map<string, { tools: PinnedDefinition[]; hold: (tool: string) => boolean }>();
  private readonly listeners = new Set<(backend: string) => void>();

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
    const { hold } = options;
    const held = (name: string): boolean => (typeof hold === 'function' ? hold(name) : (hold?.has(name) ?? false));
    return this.mutate(() => this.reviewNow(backend, tools, held));
  }

  private async reviewNow(
    backend: string,
    tools: PinnedDefinition[],
    held: (tool: string) => boolean,
  ): Promise<{ withheld: Set<string>; pinned: string[]; changes: PinChange[] }> {
    const now = new Date().toISOString();
    if (this.shared) this.listed.set(backend, { tools, hold: held });
    const current = this.pins.get(backend) ?? new Map<string, PinRecord>();
    const before = this.pending.get(backend) ?? new Map<string, PinChange>();
    const offers = tools.map((tool): PinRecord => {
      const definition = pinnedFields(tool);
      return { backend, tool: tool.name, hash: definitionHash(definition), definition, pinnedAt: now };
    });
    const first = offers.filter((offered) => !current.has(offered.tool) && !held(offered.tool));
    const next = first.length > 0 ? await this.pinFirst(backend, current, first) : current;
    const pinned = first.filter((offered) => next.get(offered.tool)?.hash === offered.hash).map((o) => o.tool);
    const changes = new Map<string, PinChange>();
    for (const offered of offers) {
      const pin = next.get(offered.tool);
      if (pin?.hash === offered.hash) continue;
      const seen = before.get(offered.tool);
      // The same offered definition keeps its first detection (and is audited once).
      changes.set(
        offered.tool,
        seen?.offered.hash === offered.hash
          ? seen
          : { backend, tool: offered.tool, pinned: pin, offered, detectedAt: now },
      );
    }
    this.pins.set(backend, next);
    this.pending.set(backend, changes);
    for (const change of changes.values()) {
      if (before.get(change.tool) !== change) this.audit('pin/changed', change, 'denied');
    }
    return { withheld: new Set(changes.keys()), pinned, changes: [...changes.values()] };
  }

  /** Pins first sights: in the file, or where no replica pinned them yet (Redis away: here alone, shared later). */
  private async pinFirst(
    backend: string,
    current: Map<string, PinRecord>,
    first: PinRecord[],
  ): Promise<Map<string, PinRecord>> {
    const local = new Map(current);
    for (const offered of first) local.set(offered.tool, offered);
    if (!this.shared) {
      await this.save(backend, local);
      return local;
    }
    try {
      const after = await this.shared.pinFirst(backend, first);
      await this.saveCopy(backend, after);
      return after;
    } catch {
      return local;
    }
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
      if (this.shared) {
        await this.sharedWrite(() => this.shared!.set(backend, record));
        await this.saveCopy(backend, next);
      } else await this.save(backend, next);
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
      if (this.shared) {
        await this.sharedWrite(() => this.shared!.remove(backend, held));
        await this.saveCopy(backend, next);
      } else await this.save(backend, next);
      this.pins.set(backend, next);
      this.pending.set(backend, pending);
    });
  }

  /** Drops every pin and pending change of a removed backend. */
  forget(backend: string): Promise<void> {
    return this.mutate(async () => {
      this.pending.delete(backend);
      this.listed.delete(backend);
      // Replicas: each forgets a removed backend; one that cannot reach Redis leaves it to the others.
      if (this.shared) await this.shared.remove(backend).catch(() => undefined);
      if (!this.pins.has(backend)) return;
      if (this.shared) await this.saveCopy(backend, undefined);
      else await this.save(backend, undefined);
      this.pins.delete(backend);
    });
  }

  /**
   * Keeps the pins in the replicas' shared state: read from there now (this
   * replica's file stays its copy for a start while Redis is away).
   */
  share(shared: SharedPins): void {
    this.shared = shared;
    // Not through `run`: a change waiting on the chain awaits `loaded`.
    this.loaded = (this.loaded ?? this.run(() => this.read())).catch(() => undefined).then(() => this.readShared());
    shared.onChange(
      (backend) => void this.run(() => (backend === undefined ? this.readShared() : this.refresh(backend))),
    );
  }

  /** Calls `listener` with a backend whose withheld tools changed through another replica. Returns the unsubscribe. */
  onChange(listener: (backend: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads every pin from the shared state and reviews every listed backend again (sharing its first sights). */
  private async readShared(): Promise<void> {
    if (!this.shared) return;
    let all: Map<string, Map<string, PinRecord>>;
    try {
      all = await this.shared.loadAll();
    } catch {
      return; // read when Redis answers
    }
    this.pins = all;
    this.loadError = undefined;
    await this.saveCopy(undefined, undefined);
    for (const backend of this.listed.keys()) await this.reviewAgain(backend);
  }

  /** Another replica changed `backend`'s pins: read them, review what it listed last against them. */
  private async refresh(backend: string): Promise<void> {
    if (!this.shared) return;
    try {
      this.pins.set(backend, await this.shared.read(backend));
    } catch {
      return; // Redis away again: everything is read when it answers
    }
    await this.saveCopy(undefined, undefined);
    await this.reviewAgain(backend);
  }

  private async reviewAgain(backend: string): Promise<void> {
    const last = this.listed.get(backend);
    if (!last) return;
    const withheld = (): string =>
      JSON.stringify(
        [...(this.pending.get(backend)?.values() ?? [])].map((change) => [change.tool, change.offered.hash]),
      );
    const before = withheld();
    await this.reviewNow(backend, last.tools, last.hold);
    if (withheld() !== before) for (const listener of this.listeners) listener(backend);
  }

  /** A write to the shared state; Redis away refuses it (`config_unreadable`), nothing changed. */
  private async sharedWrite(write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (error) {
      throw new SwitchboardError(
        ErrorCode.ConfigUnreadable,
        `tool pins are shared by the replicas through Redis, which this replica cannot reach now (${error instanceof Error ? error.message : String(error)}); nothing was changed`,
        { path: this.file },
      );
    }
  }

  /** This replica's copy of the shared pins, with `backend`'s replaced (best effort: Redis holds them). */
  private async saveCopy(backend: string | undefined, next: Map<string, PinRecord> | undefined): Promise<void> {
    await (backend === undefined ? this.saveAll(this.pins) : this.save(backend, next)).catch(() => undefined);
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
    await this.saveAll(all);
  }

  private async saveAll(all: ReadonlyMap<string, ReadonlyMap<string, PinRecord>>): Promise<void> {
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
