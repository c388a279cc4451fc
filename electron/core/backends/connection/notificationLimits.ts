/**
 * What one backend may send us unasked, bounded where its messages arrive.
 * A server that floods log messages (`notifications/message`) or progress
 * (`notifications/progress`) kept the proxy busy for tens of seconds and
 * slowed every other backend's calls. Here, in front of the SDK client (the
 * transport's `onmessage`, before any validation, handler, fan-out or
 * re-encoding; for a stdio server even before a line is decoded), logs pass at a per-backend rate
 * (a count and, for a stdio server, bytes) with a burst and the excess
 * is dropped and counted, then summarized in one log message; progress passes
 * at a per-backend rate and the excess is coalesced per progress token (the
 * latest wins), the latest value always delivered before the request's
 * answer. The token buckets are the `limiter` package's.
 */
import type { JSONRPCMessage, LoggingMessageNotification, Transport } from '@modelcontextprotocol/client';
import { TokenBucket } from 'limiter';

/** The rates one backend's notifications are held to. */
export interface NotificationRates {
  /**
   * Log messages per second; a burst of one second's worth passes at once. (Five seconds' worth, 1,000
   * logs fanned out to every session at the start of a flood, held a quiet server's calls for seconds.)
   */
  logsPerSecond: number;
  /**
   * Bytes of log lines per second, with the same burst, for a stdio server (whose line sizes are
   * known before decoding); absent: counted only. 200 logs of 20 KB a second were 4 MB/s to parse,
   * re-encode, fan out and keep for resumption.
   */
  logBytesPerSecond?: number | undefined;
  /** Progress notifications per second (all tokens together); the excess is coalesced per token. */
  progressPerSecond: number;
}

/** What the limiter tells its owner. */
export interface NotificationLimitReports {
  /** A summary log to deliver like the backend's own (once per `summaryMs` while dropping). */
  log(params: LoggingMessageNotification['params']): void;
  /** Something was dropped for the first time since the last summary (health changed). */
  dropping(): void;
}

/**
 * A line that is a log notification, told from its first bytes: its first key (after
 * `jsonrpc`, as most SDKs write it) is `"method": "notifications/message"`.
 */
const LOG_LINE = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"method"\s*:\s*"notifications\/message"/;
const HEAD_BYTES = 96;

/** The burst the log rates let through at once, in seconds of that rate (progress: two, coalesced past it). */
const BURST_SECONDS = 1;

/** How often dropped logs are summarized, and how long coalesced progress waits at most. */
const SUMMARY_MS = 1000;
const PROGRESS_FLUSH_MS = 100;

/** Totals since the connection opened, for health. */
export interface NotificationLimitCounts {
  droppedLogs: number;
  coalescedProgress: number;
}

type Deliver = NonNullable<Transport['onmessage']>;
type Extra = Parameters<Deliver>[1];
type ProgressToken = string | number;

function bucket(perSecond: number, burstSeconds: number): TokenBucket {
  const size = Math.max(1, Math.round(perSecond * burstSeconds));
  const tokens = new TokenBucket({ bucketSize: size, tokensPerInterval: perSecond, interval: 'second' });
  tokens.content = size; // the first burst passes at once
  return tokens;
}

/** The notification limits of one backend connection. */
export class NotificationLimiter {
  readonly counts: NotificationLimitCounts = { droppedLogs: 0, coalescedProgress: 0 };
  private readonly logs: TokenBucket;
  private readonly logBytes: TokenBucket | undefined;
  private readonly progress: TokenBucket;
  /** The latest progress per token that waits for the next flush. */
  private readonly pendingProgress = new Map<ProgressToken, { message: JSONRPCMessage; extra: Extra }>();
  private droppedSinceSummary = 0;
  /** Logs admitted by `skipsRawLine` whose parsed message is on its way (not charged twice). */
  private preAdmitted = 0;
  private summaryTimer: NodeJS.Timeout | undefined;
  private flushTimer: NodeJS.Timeout | undefined;
  private deliver: Deliver | undefined;

  constructor(
    private readonly backendId: string,
    private readonly rates: NotificationRates,
    private readonly reports: NotificationLimitReports,
  ) {
    this.logs = bucket(rates.logsPerSecond, BURST_SECONDS);
    this.logBytes = rates.logBytesPerSecond === undefined ? undefined : bucket(rates.logBytesPerSecond, BURST_SECONDS);
    this.progress = bucket(rates.progressPerSecond, 2);
  }

  /** Puts the limits in front of a connected transport's delivery to the SDK client. */
  attach(transport: Transport): void {
    const deliver = transport.onmessage;
    if (!deliver) return;
    this.deliver = deliver;
    transport.onmessage = (message, extra) => this.receive(message, extra);
  }

  /** Stops the timers (the connection closed); what waits is dropped. */
  stop(): void {
    clearTimeout(this.summaryTimer);
    clearTimeout(this.flushTimer);
    this.pendingProgress.clear();
  }

  /** One message from the backend: passed on, coalesced or dropped. */
  private receive(message: JSONRPCMessage, extra: Extra): void {
    const deliver = this.deliver!;
    if ('method' in message) {
      if (message.method === 'notifications/message') return this.log(message, extra);
      if (message.method === 'notifications/progress') return this.offerProgress(message, extra);
    } else if ('id' in message && this.flushProgress(message.id as ProgressToken)) {
      // An answer whose latest progress waited (the SDK uses the request's id as its progress token):
      // the SDK runs notification handlers a microtask later, answers at once, so the answer follows.
      return queueMicrotask(() => deliver(message, extra));
    }
    deliver(message, extra);
  }

  /**
   * Whether a stdio line of `bytes` should be skipped before it is decoded: a
   * log notification over the rates. One within them is charged here and
   * passes `onmessage` free.
   */
  skipsRawLine(head: Buffer, bytes = head.length): boolean {
    if (!LOG_LINE.test(head.subarray(0, HEAD_BYTES).toString('latin1'))) return false;
    if (this.logBytesAdmit(bytes) && this.logs.tryRemoveTokens(1)) {
      this.preAdmitted++;
      return false;
    }
    this.dropLog();
    return true;
  }

  /** Whether a log line of `bytes` fits the byte rate (charged when it does; one larger than the burst takes it all). */
  private logBytesAdmit(bytes: number): boolean {
    const tokens = this.logBytes;
    if (!tokens) return true;
    return tokens.tryRemoveTokens(Math.min(bytes, tokens.bucketSize));
  }

  private log(message: JSONRPCMessage, extra: Extra): void {
    if (this.preAdmitted > 0) {
      this.preAdmitted--;
      return this.deliver!(message, extra);
    }
    if (this.logs.tryRemoveTokens(1)) return this.deliver!(message, extra);
    this.dropLog();
  }

  private dropLog(): void {
    this.counts.droppedLogs++;
    if (this.droppedSinceSummary++ === 0) {
      this.reports.dropping();
      this.summaryTimer = setTimeout(() => this.summarize(), SUMMARY_MS);
      this.summaryTimer.unref();
    }
  }

  private summarize(): void {
    const dropped = this.droppedSinceSummary;
    this.droppedSinceSummary = 0;
    this.reports.log({
      level: 'warning',
      logger: 'switchboard',
      data: `${dropped} log messages from ${this.backendId} dropped (rate limit: ${this.logRate()})`,
    });
  }

  private offerProgress(message: JSONRPCMessage, extra: Extra): void {
    const token = (message as { params?: { progressToken?: unknown } }).params?.progressToken;
    if (typeof token !== 'string' && typeof token !== 'number') return this.deliver!(message, extra);
    if (this.progress.tryRemoveTokens(1)) {
      // In order: a newer value passing now makes the waiting older one moot.
      if (this.pendingProgress.delete(token)) this.coalesced();
      return this.deliver!(message, extra);
    }
    if (this.pendingProgress.has(token)) this.coalesced();
    this.pendingProgress.set(token, { message, extra });
    if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => this.flushAll(), PROGRESS_FLUSH_MS);
      this.flushTimer.unref();
    }
  }

  /** One progress notification replaced by a newer one; health learns of the first. */
  private coalesced(): void {
    if (this.counts.coalescedProgress++ === 0) this.reports.dropping();
  }

  /** Delivers the waiting progress of one token (its request is being answered); whether one waited. */
  private flushProgress(token: ProgressToken): boolean {
    const waiting = this.pendingProgress.get(token);
    if (!waiting) return false;
    this.pendingProgress.delete(token);
    this.deliver!(waiting.message, waiting.extra);
    return true;
  }

  /** Delivers the latest waiting progress of every token. */
  private flushAll(): void {
    this.flushTimer = undefined;
    const waiting = [...this.pendingProgress.values()];
    this.pendingProgress.clear();
    for (const { message, extra } of waiting) this.deliver!(message, extra);
  }

  /** The log rates in words: `200/s` or `200/s, 256 KB/s`. */
  private logRate(): string {
    const { logsPerSecond, logBytesPerSecond } = this.rates;
    return logBytesPerSecond === undefined
      ? `${logsPerSecond}/s`
      : `${logsPerSecond}/s, ${Math.round(logBytesPerSecond / 1024)} KB/s`;
  }

  /** A line for the backend's health warnings, when anything was held back. */
  warning(): string | undefined {
    const { droppedLogs, coalescedProgress } = this.counts;
    if (droppedLogs === 0 && coalescedProgress === 0) return undefined;
    const { progressPerSecond } = this.rates;
    return (
      `notifications over the rate limits: ${droppedLogs} log messages dropped (${this.logRate()}), ` +
      `${coalescedProgress} progress notifications coalesced (${progressPerSecond}/s)`
    );
  }
}
