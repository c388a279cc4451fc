/**
 * What a stdio server wrote on stdout that is not JSON-RPC: a library
 * printing its banner, a debug line, invalid UTF-8. Such lines are skipped
 * (as the SDK does), which used to leave nothing to diagnose a broken server
 * by. Here they are counted: the first one is kept, shown safely (a bounded
 * head, every byte outside printable ASCII escaped, so no control sequence
 * or bidi override reaches a terminal or the UI; a cut leaves out the word it
 * would split, so a secret is shown whole, for the redaction to catch, or
 * not at all), for the server's health
 * warning, and a log line says so at most once per interval with the count
 * since the last one. Nothing runs for a line that parses: this costs a
 * working server nothing.
 */

/** How much of a line is shown. */
const SHOWN_CHARS = 80;

/** The least time between two log lines about one server's junk, ms. */
export const JUNK_LOG_INTERVAL_MS = 10_000;

/**
 * A line's head with everything outside printable ASCII escaped (\u00XX), quoted, `…` when cut.
 * A cut never splits a word: a secret cut in half would no longer be recognised by the redaction
 * every log and health text passes through, so the partial word is left out whole.
 */
export function showSafely(line: string, max = SHOWN_CHARS): string {
  let head = [...line.slice(0, max * 2)].slice(0, max).join('');
  if (head.length < line.length) head = head.replace(/[^\s"',;:=&?]+$/u, '');
  const escaped = head.replace(/[^\x20-\x7e]|["\\]/gu, (char) =>
    char === '"' || char === '\\'
      ? `\\${char}`
      : [...char].map((unit) => `\\u${unit.codePointAt(0)!.toString(16).padStart(4, '0')}`).join(''),
  );
  return `"${escaped}"${head.length < line.length ? '…' : ''}`;
}

/** What a junk counter tells its owner. */
export interface StdoutJunkReports {
  /** A bounded, rate-limited line for serve's log. */
  log(message: string): void;
  /** The first junk line since the connection opened (health changed). */
  first(): void;
}

/** The junk lines of one stdio connection. */
export class StdoutJunk {
  /** Lines skipped since the connection opened. */
  count = 0;
  private firstShown: string | undefined;
  /** Lines skipped since the last log line, and the latest of them (shown safely). */
  private sinceLog = 0;
  private latest = '';
  private lastLog = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly backendId: string,
    private readonly reports: StdoutJunkReports,
    private readonly intervalMs = JUNK_LOG_INTERVAL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** One line that is not JSON-RPC (skipped). */
  note(line: string): void {
    this.count++;
    this.sinceLog++;
    this.latest = showSafely(line);
    if (this.firstShown === undefined) {
      this.firstShown = this.latest;
      this.reports.first();
    }
    const wait = this.lastLog + this.intervalMs - this.now();
    if (wait <= 0) return this.logNow();
    // Within the interval: one log line at its end says how many more came.
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.logNow();
    }, wait);
    this.timer.unref();
  }

  /** Stops the pending log line (the connection closed). */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private logNow(): void {
    const n = this.sinceLog;
    const lines = n === 1 ? '1 line that is' : `${n} lines that are`;
    this.reports.log(
      `backend "${this.backendId}" wrote ${lines} not JSON-RPC on stdout (skipped; ${this.count} so far; logs belong on stderr), the latest: ${this.latest}`,
    );
    this.lastLog = this.now();
    this.sinceLog = 0;
  }

  /** The health warning, once any line was skipped. */
  warning(): string | undefined {
    if (this.count === 0) return undefined;
    const lines = this.count === 1 ? '1 line that is' : `${this.count} lines that are`;
    return `wrote ${lines} not JSON-RPC on stdout: ${this.firstShown} (the first; skipped; logs belong on stderr)`;
  }
}
