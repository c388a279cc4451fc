/**
 * Keeps the skills installed into clients' folders in sync with what their
 * profiles may use, from inside the running Switchboard: each client recorded
 * by `skills install` (skills-installs.json) is installed into again after the
 * catalog changed (a server's skills changed, a rule, an approval) and at
 * start. Reviewed first: a changed skill is withheld until approved, so the
 * copy installed stays as it was until then (kept, not removed), and is
 * rewritten once approved; one removed upstream or denied is removed.
 *
 * Bounded and off the call path: triggers are debounced into one run, one run
 * at a time (a trigger during a run asks for one more), each run under a
 * deadline and aborted on close; nothing runs while no install is recorded.
 * Unchanged skills cost one marker read each (skillsInstall.ts).
 */
import { installSkills, installedSkillClients, type SkillsInstallOutcome } from './skillsInstall.js';
import type { ClientsContext } from './install.js';

/** What the sync needs from the core it runs in. */
export interface SkillsSyncDeps {
  /** The state directory holding the record of installs (read first: with none, nothing else is built). */
  stateDir: string;
  /** The clients context (our endpoint, the profiles' tokens, the same state directory). */
  context: () => Promise<ClientsContext>;
  /** Why one of ours that is no longer offered is kept (held for review, its server down), or undefined. */
  keep: (skill: { name: string; uri: string }) => string | undefined;
  /** Whether a listing now is complete (every server settled or its cached catalog published). */
  listable: () => boolean;
  /** Told each client's outcome, or why its sync failed (for the log). */
  report: (client: string, outcome: SkillsInstallOutcome | Error) => void;
  /** Quiet time after the last trigger before a run (default 1 s). */
  delayMs?: number;
  /** Deadline of one run (default 60 s). */
  timeoutMs?: number;
}

/** The debounced, single-flight sync of installed skills. */
export class SkillsSync {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private readonly closed = new AbortController();

  constructor(private readonly deps: SkillsSyncDeps) {}

  /** Asks for a sync soon (after the quiet time); cheap, whatever the rate. */
  trigger(): void {
    if (this.closed.signal.aborted) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), this.deps.delayMs ?? 1000);
    this.timer.unref();
  }

  /** Runs a sync now (or joins the one running), then any asked for meanwhile. */
  async run(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.once()
      .catch((error: unknown) => this.deps.report('(all)', error instanceof Error ? error : new Error(String(error))))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.closed.signal.aborted) {
          this.again = false;
          this.trigger();
        }
      });
    return this.running;
  }

  /** Stops: no new run, the running one aborted. */
  close(): void {
    clearTimeout(this.timer);
    this.closed.abort();
  }

  private async once(): Promise<void> {
    const clients = await installedSkillClients(this.deps.stateDir);
    if (clients.length === 0) return;
    const ctx = await this.deps.context();
    // A listing while servers still start would miss their skills and remove them: wait.
    if (!this.deps.listable()) {
      this.again = true;
      return;
    }
    const signal = AbortSignal.any([this.closed.signal, AbortSignal.timeout(this.deps.timeoutMs ?? 60_000)]);
    for (const client of clients) {
      if (signal.aborted) return;
      try {
        this.deps.report(client, await installSkills(ctx, client, { signal, keep: this.deps.keep }));
      } catch (error) {
        this.deps.report(client, error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}
