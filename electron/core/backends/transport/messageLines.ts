/**
 * Splitting a stdio backend's stdout into messages (the MCP stdio transport:
 * one JSON-RPC message per line, spec "Transports > stdio"), with a size limit
 * per message rather than per buffer. A line over the limit is skipped to its
 * newline, keeping only its head and tail so the caller can tell which request
 * it answered; the lines after it are read as usual, so one oversize answer
 * costs one request, not the connection.
 */

/** What is kept of a line over the limit. */
export interface OversizeLine {
  bytes: number;
  /** Its first bytes (a response usually names `"id"` near one end). */
  head: string;
  /** Its last bytes. */
  tail: string;
}

const KEEP = 512;

/** Incremental line splitter with a per-line byte limit. */
export class MessageLines {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping = false;
  private head = '';
  private tail: Buffer = Buffer.alloc(0);

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversize: (line: OversizeLine) => void,
    /** Looks at a line's first bytes (and its size) before it is decoded: true skips it unread (a log over the rate). */
    private readonly skip?: (head: Buffer, bytes: number) => boolean,
  ) {}

  /** Feeds a chunk of stdout. */
  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      this.take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      this.finish();
      start = newline + 1;
    }
  }

  /** Drops a partial line (the stream ended). */
  clear(): void {
    this.parts = [];
    this.size = 0;
    this.skipping = false;
    this.tail = Buffer.alloc(0);
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping) {
      this.tail = Buffer.concat([this.tail, piece]).subarray(-KEEP);
    } else if (this.size + piece.length > this.maxBytes) {
      const sofar = Buffer.concat([...this.parts, piece]);
      this.skipping = true;
      this.head = sofar.subarray(0, KEEP).toString('utf8');
      this.tail = Buffer.from(sofar.subarray(-KEEP));
      this.parts = [];
    } else {
      this.parts.push(piece);
    }
    this.size += piece.length;
  }

  private finish(): void {
    if (this.skipping) {
      this.onOversize({ bytes: this.size, head: this.head, tail: this.tail.toString('utf8') });
    } else if (this.size > 0 && this.skip?.(this.parts[0]!, this.size)) {
      // Skipped before any decoding or parsing: the cheapest a flood can be.
    } else if (this.size > 0) {
      const line = Buffer.concat(this.parts).toString('utf8');
      // CRLF-terminated lines (Windows servers) are one message too.
      const message = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (message.trim()) this.onLine(message);
    }
    this.clear();
  }
}

const ID = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`;
/** `{"jsonrpc":"2.0","id":...` or `{"id":...` at the start of a message. */
const HEAD_ID = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${ID}`);
/** `..."id":...}` at the very end: one closing brace, so the top-level member (SDKs put id last). */
const TAIL_ID = new RegExp(String.raw`"id"\s*:\s*${ID}\s*\}\s*$`);

/** The JSON-RPC id of an oversize response, when its head or tail shows it. */
export function oversizeResponseId(line: OversizeLine): string | number | undefined {
  const match = HEAD_ID.exec(line.head) ?? TAIL_ID.exec(line.tail);
  if (!match?.[1]) return undefined;
  return JSON.parse(match[1]) as string | number;
}
