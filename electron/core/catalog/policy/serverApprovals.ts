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
  formatApprovals,
  maskedLaunch,
  parseApprovals,
  type ApprovalRecord,
  type ApprovalsState,
} from './approvalFile.js';
import { backendLaunchHash, launchLineOf } from './launchLine.js';

export type { ApprovalRecord };

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
        await this.save(adopted);
        this.state = adopted;
        this.loadError = undefined;
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
        throw error;
      }
    });
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
      await this.commit(next);
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
      await this.commit(next);
      return record;
    });
  }

  /** Puts a server back under review: quarantined until approved again. */
  hold(backend: BackendConfig): Promise<void> {
    return this.mutate(async () => {
      const next = this.copy();
      next.held.set(backend.id, { at: new Date().toISOString() });
      await this.commit(next);
    });
  }

  /** Records the user's choice to start a quarantined `backend` unsandboxed (for its current launch line). */
  allowUnsandboxed(backend: BackendConfig): Promise<void> {
    return this.mutate(async () => {
      const next = this.copy();
      next.unsandboxed.set(backend.id, { hash: backendLaunchHash(backend), at: new Date().toISOString() });
      await this.commit(next);
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
      await this.commit(next);
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

  private async commit(next: ApprovalsState): Promise<void> {
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

function recordOf(backend: BackendConfig, approvedAt: string): ApprovalRecord {
  return { hash: backendLaunchHash(backend), launch: maskedLaunch(launchLineOf(backend)), approvedAt };
}
