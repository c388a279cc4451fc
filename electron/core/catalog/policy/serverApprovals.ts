/**
 * The user's approvals of servers (quarantine): per server, the hash of the
 * launch line approved. A server whose current launch line has no matching
 * approval is quarantined (catalog/policy/serverReviews.ts decides). One JSON
 * file in the config dir, written atomically (mode 0600).
 *
 * Migration: when the file does not exist yet (the first run of a version with
 * quarantine, or a brand-new config), every server in the config at that
 * start is recorded as approved, so existing setups keep working; from then
 * on, a server not in the file is quarantined.
 */
import { readFile } from 'node:fs/promises';
import { ErrorCode, SwitchboardError } from '../../../../shared/errors.js';
import { fileWriter, type AtomicWriter } from '../../platform/config/configStore.js';
import type { BackendConfig } from '../../platform/config/schema.js';
import { formatApprovals, parseApprovals, type ApprovalRecord } from './approvalFile.js';
import { backendLaunchHash, launchLineOf } from './launchLine.js';

export type { ApprovalRecord };

/** Approved launch lines per server, kept in one file. */
export class ServerApprovals {
  private approvals = new Map<string, ApprovalRecord>();
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
        const adopted = new Map(initial.map((backend) => [backend.id, recordOf(backend, now)]));
        await this.save(adopted);
        this.approvals = adopted;
        this.loadError = undefined;
        return;
      }
      try {
        this.approvals = parseApprovals(text, this.file);
        this.loadError = undefined;
      } catch (error) {
        this.loadError = error;
        throw error;
      }
    });
  }

  /** A server's approval, whatever launch line it covers. */
  get(server: string): ApprovalRecord | undefined {
    return this.approvals.get(server);
  }

  /** Whether `backend`'s current launch line is the one approved. */
  isApproved(backend: BackendConfig): boolean {
    return this.approvals.get(backend.id)?.hash === backendLaunchHash(backend);
  }

  /** Approves `backend`'s current launch line and saves. */
  approve(backend: BackendConfig): Promise<ApprovalRecord> {
    return this.mutate(async () => {
      const record = recordOf(backend, new Date().toISOString());
      const next = new Map(this.approvals).set(backend.id, record);
      await this.save(next);
      this.approvals = next;
      return record;
    });
  }

  /** Forgets a removed server: added again, it is new again. */
  forget(server: string): Promise<void> {
    return this.mutate(async () => {
      if (!this.approvals.has(server)) return;
      const next = new Map(this.approvals);
      next.delete(server);
      await this.save(next);
      this.approvals = next;
    });
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

  private async save(all: ReadonlyMap<string, ApprovalRecord>): Promise<void> {
    try {
      await this.writer.write(this.file, formatApprovals(all));
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
  return { hash: backendLaunchHash(backend), launch: launchLineOf(backend), approvedAt };
}
