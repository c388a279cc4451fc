/**
 * A per-event size limit on a server-sent event stream (HTML Living
 * Standard, "Server-sent events": an event ends at a blank line). A stream
 * carrying an event over the limit is ended with an error; the events before
 * it pass unchanged.
 */
import { Transform, type TransformCallback } from 'node:stream';

const BOUNDARIES = [Buffer.from('\n\n'), Buffer.from('\r\n\r\n'), Buffer.from('\r\r')];

/** Where the last event boundary in `bytes` ends, or -1. */
function lastBoundaryEnd(bytes: Buffer): number {
  let end = -1;
  for (const boundary of BOUNDARIES) {
    const at = bytes.lastIndexOf(boundary);
    if (at !== -1) end = Math.max(end, at + boundary.length);
  }
  return end;
}

/** Passes an event stream through, failing it at the first event over `maxBytes`. */
export class SseEventLimit extends Transform {
  /** Bytes of the event being received. */
  private current = 0;
  /** The last bytes seen, so a boundary split across chunks is found. */
  private carry: Buffer = Buffer.alloc(0);

  constructor(
    private readonly maxBytes: number,
    private readonly onOversize?: (message: string) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    const joined = Buffer.concat([this.carry, chunk]);
    const end = lastBoundaryEnd(joined);
    this.current = end === -1 ? this.current + chunk.length : joined.length - end;
    this.carry = Buffer.from(joined.subarray(-3));
    if (this.current > this.maxBytes) {
      const message = `an event of over ${this.maxBytes} bytes, over maxMessageBytes (${this.maxBytes})`;
      this.onOversize?.(message);
      done(new Error(`the backend sent ${message}`));
      return;
    }
    done(null, chunk);
  }
}
