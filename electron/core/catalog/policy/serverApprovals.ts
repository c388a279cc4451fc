/**
 * The user's approvals of servers (quarantine): per server, the hash of the
 * launch line approved. A server whose current launch line has no matching
 * approval is quarantined (catalog/policy/serverReviews.ts decides). One JSON
 * file in the config dir, written atomically (mode 0600), never holding a
 * secret (approvalFile.ts masks the launch lines it keeps). Beside the
 * approvals, two recorded choices: servers put back under review
 * ("Quarantine again") and quarantined servers the user chose to start
 * unsandboxed where no sandbox runs.
 *
 * Migration: when the file does not exist yet (the first run of a version with
 * quarantine, or a brand-new config), every server in the config at that
 * start is recorded as approved, so existing setups keep working; from then
 * on, a server not in the file is quarantined. A version 1 file (launch lines
 * in plain text) is written again as version 2 when read.
 */
import { readFile } from 'node:fs/promises';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { fileWriter, type AtomicWriter } from '../../platform/config/configStore.js';
import type { BackendConfig } from '../../platform/config/schema.js';
import {
  entryOf,
  formatApprovals,
  maskedLaunch,
  parseApprovals,
  setEntry,
  type ApprovalRecord,
  type ApprovalsState,
  type ServerEntry,
} from './approvalFile.js';
import { backendLaunchHash, launchLineOf } from './launchLine.js';

export type { ApprovalRecord, ServerEntry };

/** The approvals as replicas share them (catalog/policy/redisReviewState.ts). */
export interface SharedApprovals {
  /** Every server's entry; the cluster's first start writes `seed` first. Rejects while Redis is away. */
  load(seed: ReadonlyMap<string, ServerEntry>): Promise<Map<string, ServerEntry>>;
  /** One server's entry. */
  read(server: string): Promise<ServerEntry | undefined>;
  /** Writes (undefined: removes) one server's entry and announces it, in one step. */
  write(server: string, entry: ServerEntry | undefined): Promise<void>;
  /** Calls `listener` with a server whose entry changed, or undefined when Redis answers again (read all). */
  onChange(listener: (server: string | undefined) => void): () => void;
}

const empty = (): ApprovalsState => ({
  approvals: new Map(),
  held: new Map(),
  unsandboxed: new Map(),
  heldTools: new Map(),
});

/** Approved launch lines per server, kept in one file. */
export class ServerApprovals {
  private state: ApprovalsState = empty();
  private loadError: unknown;
  /** Operations run one at a time, so each saves a state no other operation is halfway through. */
  private chain: Promise<unknown> = Promise.resolve();
  private shared: SharedApprovals | undefined;
  /** Whether the state was read from the shared one (false: this replica's copy, Redis away since the start). */
  private sharedRead = false;
  private readonly listeners = new Set<(server: string) => void>();

  /** @param file the approvals file (JSON) */
  constructor(
    readonly file: string,
    private readonly writer: AtomicWriter = fileWriter,
  ) {}

  /**
   * Reads the file. A missing file is the migration: `initial` (the servers in
   * the config at this start) are recorded as approved and saved. A corrupt
   * file throws `config_invalid` and is never overwritten (every server is
   * then quarantined: nothing is trusted that cannot be read).
   */
  load(initial: readonly BackendConfig[]): Promise<void> {
    return this.run(async () => {
      let text: string;
      try {
        text = await readFile(this.file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        const now = new Date().toISOString();
        const adopted = {
          ...empty(),
          approvals: new Map(initial.map((backend) => [backend.id, recordOf(backend, now)])),
        };
        await this.save(adopted).catch((error: unknown) => {
          if (!this.shared) throw error;
        });
        this.state = adopted;
        this.loadError = undefined;
        await this.readShared();
        return;
      }
      try {
        const { migrated, ...state } = parseApprovals(text, this.file);
        // An older file kept launch lines in plain text: written again, masked.
        if (migrated) await this.save(state);
        this.state = state;
        this.loadError = undefined;
      } catch (error) {
        this.loadError = error;
        // Replicas: the file is only this replica's copy; the shared state decides.
        if (!this.shared) throw error;
      }
      await this.readShared();
      if (this.loadError !== undefined) throw this.loadError;
    });
  }

  /** Keeps the approvals in the replicas' shared state (before `load`). */
  share(shared: SharedApprovals): void {
    this.shared = shared;
    shared.onChange((server) => void this.run(() => this.refresh(server)));
  }

  /** Calls `listener` with a server whose approval another replica changed. Returns the unsubscribe. */
  onChange(listener: (server: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads the shared state, seeding it with this replica's on the cluster's first start; Redis away: kept as it is. */
  private async readShared(): Promise<void> {
    if (!this.shared) return;
    const seed = new Map(this.servers(this.state).map((server) => [server, entryOf(this.state, server)!]));
    let all: Map<string, ServerEntry>;
    try {
      all = await this.shared.load(seed);
    } catch {
      return; // read when Redis answers (refresh)
    }
    const next = empty();
    for (const [server, entry] of all) setEntry(next, server, entry);
    const before = this.state;
    this.state = next;
    this.sharedRead = true;
    this.loadError = undefined;
    await this.saveCopy(next);
    for (const server of new Set([...this.servers(before), ...this.servers(next)]))
      if (!sameEntry(entryOf(before, server), entryOf(next, server))) this.tell(server);
  }

  /** Another replica changed `server`'s entry (undefined: Redis answers again, read everything). */
  private async refresh(server: string | undefined): Promise<void> {
    if (!this.shared) return;
    if (server === undefined) return this.readShared();
    let entry: ServerEntry | undefined;
    try {
      entry = await this.shared.read(server);
    } catch {
      return; // Redis away again: everything is read when it answers
    }
    if (sameEntry(entryOf(this.state, server), entry)) return;
    const next = this.copy();
    setEntry(next, server, entry);
    this.state = next;
    await this.saveCopy(next);
    this.tell(server);
  }

  private tell(server: string): void {
    for (const listener of this.listeners) listener(server);
  }

  private servers(state: ApprovalsState): string[] {
    return [
      ...new Set([
        ...state.approvals.keys(),
        ...state.held.keys(),
        ...state.unsandboxed.keys(),
        ...state.heldTools.keys(),
      ]),
    ];
  }

  /** This replica's copy of the shared state (best effort: Redis holds it). */
  private async saveCopy(state: ApprovalsState): Promise<void> {
    await this.save(state).catch(() => undefined);
  }

  /** A server's approval, whatever launch line it covers. */
  get(server: string): ApprovalRecord | undefined {
    return this.state.approvals.get(server);
  }

  /** Whether `backend`'s current launch line is the one approved (and it was not put back under review). */
  isApproved(backend: BackendConfig): boolean {
    return (
      !this.state.held.has(backend.id) && this.state.approvals.get(backend.id)?.hash === backendLaunchHash(backend)
    );
  }

  /** Whether the user put the server back under review. */
  isHeld(server: string): boolean {
    return this.state.held.has(server);
  }

  /** Whether the user chose to start `backend` unsandboxed while quarantined (for its current launch line). */
  startsUnsandboxed(backend: BackendConfig): boolean {
    return this.state.unsandboxed.get(backend.id)?.hash === backendLaunchHash(backend);
  }

  /** Whether the user held this tool when approving its server (until approved one by one). */
  isToolHeld(server: string, tool: string): boolean {
    return this.state.heldTools.get(server)?.includes(tool) ?? false;
  }

  /** Releases a held tool (approved one by one). */
  releaseTool(server: string, tool: string): Promise<void> {
    return this.mutate(async () => {
      const tools = this.state.heldTools.get(server);
      if (!tools?.includes(tool)) return;
      const next = this.copy();
      const rest = tools.filter((name) => name !== tool);
      if (rest.length > 0) next.heldTools.set(server, rest);
      else next.heldTools.delete(server);
      await this.commit(next, server);
    });
  }

  /**
   * Approves `backend`'s current launch line and saves (a hold or an unsandboxed start is over);
   * `holdTools`: the tools kept held until approved one by one.
   */
  approve(backend: BackendConfig, holdTools: readonly string[] = []): Promise<ApprovalRecord> {
    return this.mutate(async () => {
      const record = recordOf(backend, new Date().toISOString());
      const next = this.copy();
      next.approvals.set(backend.id, record);
      next.held.delete(backend.id);
      next.unsandboxed.delete(backend.id);
      if (holdTools.length > 0) next.heldTools.set(backend.id, [...holdTools]);
      else next.heldTools.delete(backend.id);
      await this.commit(next, backend.id);
      return record;
    });
  }

  /** Puts a server back under review: quarantined until approved again. */
  hold(backend: BackendConfig): Promise<void> {
    return this.mutate(async () => {
      const next = this.copy();
      next.held.set(backend.id, { at: new Date().toISOString() });
      await this.commit(next, backend.id);
    });
  }

  /** Records the user's choice to start a quarantined `backend` unsandboxed (for its current launch line). */
  allowUnsandboxed(backend: BackendConfig): Promise<void> {
    return this.mutate(async () => {
      const next = this.copy();
      next.unsandboxed.set(backend.id, { hash: backendLaunchHash(backend), at: new Date().toISOString() });
      await this.commit(next, backend.id);
    });
  }

  /** Forgets a removed server: added again, it is new again. */
  forget(server: string): Promise<void> {
    return this.mutate(async () => {
      const { approvals, held, unsandboxed, heldTools } = this.state;
      if (!approvals.has(server) && !held.has(server) && !unsandboxed.has(server) && !heldTools.has(server)) return;
      const next = this.copy();
      next.approvals.delete(server);
      next.held.delete(server);
      next.unsandboxed.delete(server);
      next.heldTools.delete(server);
      await this.commit(next, server);
    });
  }

  private copy(): ApprovalsState {
    return {
      approvals: new Map(this.state.approvals),
      held: new Map(this.state.held),
      unsandboxed: new Map(this.state.unsandboxed),
      heldTools: new Map(this.state.heldTools),
    };
  }

  /** Saves `next`, a change of `server`'s entry: to the shared state first when replicas share it. */
  private async commit(next: ApprovalsState, server: string): Promise<void> {
    if (this.shared) {
      if (!this.sharedRead) await this.readShared();
      try {
        if (!this.sharedRead) throw new Error('not read yet');
        await this.shared.write(server, entryOf(next, server));
      } catch (error) {
        throw new SwitchboardError(
          ErrorCode.ConfigUnreadable,
          `server approvals are shared by the replicas through Redis, which this replica cannot reach now (${error instanceof Error ? error.message : String(error)}); nothing was changed`,
          { path: this.file },
        );
      }
      this.state = next;
      await this.saveCopy(next);
      return;
    }
    await this.save(next);
    this.state = next;
  }

  private run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.chain.then(task);
    this.chain = result.catch(() => undefined);
    return result;
  }

  /** Runs a change; refused while the file is corrupt, so it is never overwritten. */
  private mutate<T>(task: () => Promise<T>): Promise<T> {
    return this.run(async () => {
      if (this.loadError !== undefined) throw this.loadError;
      return task();
    });
  }

  private async save(state: ApprovalsState): Promise<void> {
    try {
      await this.writer.write(this.file, formatApprovals(state));
    } catch (error) {
      throw new SwitchboardError(
        ErrorCode.ConfigUnreadable,
        `cannot save ${this.file}: ${error instanceof Error ? error.message : String(error)}; the file was left as it was`,
        { path: this.file },
      );
    }
  }
}

/** Whether two entries say the same (their JSON, fields in one order). */
function sameEntry(a: ServerEntry | undefined, b: ServerEntry | undefined): boolean {
  const text = (entry: ServerEntry | undefined) =>
    entry === undefined ? '' : JSON.stringify([entry.approval, entry.held, entry.unsandboxed, entry.heldTools]);
  return text(a) === text(b);
}

function recordOf(backend: BackendConfig, approvedAt: string): ApprovalRecord {
  return { hash: backendLaunchHash(backend), launch: maskedLaunch(launchLineOf(backend)), approvedAt };
}
