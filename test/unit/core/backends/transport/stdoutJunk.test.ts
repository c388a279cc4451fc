// A stdio server's lines that are not JSON-RPC: counted for a health warning that shows the first
// one safely, and logged at most once per interval with the count, however many come.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { showSafely, StdoutJunk } from '../../../../../electron/core/backends/transport/stdoutJunk.js';

describe('showSafely', () => {
  it('escapes everything outside printable ASCII, quotes and bounds the head', () => {
    expect(showSafely('hello this is not json')).toBe('"hello this is not json"');
    // Invalid UTF-8 decodes to U+FFFD; a terminal escape and a bidi override stay inert.
    expect(showSafely('\ufffd\ufffd\u001b[31mred\u202e"q"\\')).toBe('"\\ufffd\\ufffd\\u001b[31mred\\u202e\\"q\\"\\\\"');
    expect(showSafely(`${'y '.repeat(30)}${'x'.repeat(500)}`)).toBe(`"${'y '.repeat(30)}"…`);
    // A word the cut would split (a token, say) is left out whole, never shown in part.
    expect(showSafely(`debug: api_key=${'s3cr3t'.repeat(20)}`)).toBe('"debug: api_key="…');
  });
});

describe('StdoutJunk', () => {
  afterEach(() => vi.useRealTimers());

  it('warns with the first line and the count, and logs once per interval with the count since', () => {
    vi.useFakeTimers();
    const logs: string[] = [];
    let firsts = 0;
    const junk = new StdoutJunk('noisy', { log: (line) => logs.push(line), first: () => void firsts++ }, 1000);
    expect(junk.warning()).toBeUndefined();
    junk.note('banner v1');
    for (let i = 0; i < 999; i++) junk.note(`junk ${i}`);
    expect(firsts).toBe(1);
    expect(logs).toEqual([
      'backend "noisy" wrote 1 line that is not JSON-RPC on stdout (skipped; 1 so far; logs belong on stderr), the latest: "banner v1"',
    ]);
    vi.advanceTimersByTime(1000);
    expect(logs).toHaveLength(2);
    expect(logs[1]).toBe(
      'backend "noisy" wrote 999 lines that are not JSON-RPC on stdout (skipped; 1000 so far; logs belong on stderr), the latest: "junk 998"',
    );
    expect(junk.warning()).toBe(
      'wrote 1000 lines that are not JSON-RPC on stdout: "banner v1" (the first; skipped; logs belong on stderr)',
    );
    // Quiet since: nothing more is logged.
    vi.advanceTimersByTime(5000);
    expect(logs).toHaveLength(2);
  });

  it('logs nothing after it stopped (the connection closed)', () => {
    vi.useFakeTimers();
    const logs: string[] = [];
    const junk = new StdoutJunk('x', { log: (line) => logs.push(line), first: () => undefined }, 1000);
    junk.note('a');
    junk.note('b');
    junk.stop();
    vi.advanceTimersByTime(2000);
    expect(logs).toHaveLength(1);
  });
});
