/**
 * When to re-read the client stores for a token nobody knows. `install`
 * writes a new client's profile (config.json) and token (client-tokens.json)
 * from another process, and the client's first request can arrive before the
 * running instance has seen either (the config watcher waits, and a busy
 * machine makes it wait longer): that request must not get 401. So an unknown
 * token makes us re-read both before refusing, but a stream of bad tokens must
 * not make us read files on every request: a re-read happens when the files
 * changed since the last one (told by their stat, which is cheap: a flood of
 * bad tokens cannot spend what a newly installed client needs), else at a
 * bounded rate (the `limiter` package's token bucket, for file systems whose
 * times are too coarse to tell); requests arriving during a re-read share the
 * one queued after it (a re-read that began before the files were written
 * would not know the new client).
 */
import { statSync } from 'node:fs';
import { TokenBucket } from 'limiter';

/** How many re-reads may run at once after a quiet spell, and per second after that. */
export const RECHECK_BURST = 5;
export const RECHECKS_PER_SECOND = 2;

/** Runs a re-read for unknown tokens, rate-limited and coalesced. */
export class UnknownTokenRecheck {
  private readonly bucket = new TokenBucket({
    bucketSize: RECHECK_BURST,
    tokensPerInterval: RECHECKS_PER_SECOND,
    interval: 'second',
  });
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  /** The files' stat when the last re-read began. */
  private readStamp = '';
  /** The re-read that covers `readStamp` while it runs (started or queued after that stat was taken). */
  private covering: Promise<void> | undefined;

  constructor(
    /** The files re-read (the token file and config.json). */
    private readonly files: () => readonly string[],
    private readonly reread: () => Promise<void>,
  ) {
    this.bucket.content = RECHECK_BURST; // a bucket starts empty; the burst is there from the start
  }

  /** Size and modification time of each file ('-' for a missing one). */
  private stamp(): string {
    return this.files()
      .map((file) => {
        const stat = statSync(file, { throwIfNoEntry: false });
        return stat ? `${stat.size}:${stat.mtimeMs}:${stat.ino}` : '-';
      })
      .join('|');
  }

  /**
   * A re-read that starts no earlier than now, or false at once when the files
   * did not change and the rate is spent (the caller then refuses as before).
   * Resolves true when it is done.
   */
  async run(): Promise<boolean> {
    if (this.queued) return this.queued.then(() => true);
    const stamp = this.stamp();
    if (stamp === this.readStamp) {
      // The files are as a re-read still under way saw them: its answer is this request's too
      // (refusing now would refuse a client whose token that re-read is about to learn).
      if (this.covering) return this.covering.then(() => true);
      if (!this.bucket.tryRemoveTokens(1)) return false;
    }
    this.readStamp = stamp;
    const covering = this.running
      ? (this.queued = this.running.then(() => {
          this.queued = undefined;
          return this.start();
        }))
      : this.start();
    this.covering = covering;
    void covering.finally(() => {
      if (this.covering === covering) this.covering = undefined;
    });
    await covering;
    return true;
  }

  private start(): Promise<void> {
    const running = this.reread()
      .catch(() => undefined)
      .finally(() => {
        if (this.running === running) this.running = undefined;
      });
    this.running = running;
    return running;
  }
}
