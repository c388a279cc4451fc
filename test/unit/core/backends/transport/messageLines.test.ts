import { describe, expect, it } from 'vitest';
import {
  MessageLines,
  oversizeResponseId,
  type OversizeLine,
} from '../../../../../electron/core/backends/transport/messageLines.js';
import { SseEventLimit } from '../../../../../electron/core/backends/transport/nodeFetch.js';

function split(max: number, chunks: string[]): { lines: string[]; oversize: OversizeLine[] } {
  const lines: string[] = [];
  const oversize: OversizeLine[] = [];
  const reader = new MessageLines(
    max,
    (line) => lines.push(line),
    (line) => oversize.push(line),
  );
  for (const chunk of chunks) reader.push(Buffer.from(chunk));
  return { lines, oversize };
}

describe('MessageLines', () => {
  it('splits lines across chunks and drops CR and blank lines', () => {
    expect(split(100, ['{"a":', '1}\r\n\n{"b"', ':2}\n{"c"']).lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('skips, unread, the lines its skip hook picks from their first bytes, and reads the rest', () => {
    const lines: string[] = [];
    const heads: string[] = [];
    const reader = new MessageLines(
      1000,
      (line) => lines.push(line),
      () => undefined,
      (head) => {
        heads.push(head.toString());
        return head.toString().startsWith('{"drop"');
      },
    );
    for (const chunk of ['{"drop":1}\n{"keep":', '1}\n{"drop":2}\n']) reader.push(Buffer.from(chunk));
    expect(lines).toEqual(['{"keep":1}']);
    expect(heads).toEqual(['{"drop":1}', '{"keep":', '{"drop":2}']);
  });

  it('skips a line over the limit, keeping its ends, and reads the next one', () => {
    const big = `{"result":{"text":"${'x'.repeat(5000)}"},"jsonrpc":"2.0","id":42}`;
    const { lines, oversize } = split(1000, [
      big.slice(0, 700),
      big.slice(700, 3000),
      `${big.slice(3000)}\n{"ok":1}\n`,
    ]);
    expect(lines).toEqual(['{"ok":1}']);
    expect(oversize).toHaveLength(1);
    expect(oversize[0]?.bytes).toBe(big.length);
    expect(oversizeResponseId(oversize[0]!)).toBe(42);
  });

  it('finds the id at either end, and not an inner one', () => {
    expect(oversizeResponseId({ bytes: 0, head: '{"jsonrpc":"2.0","id":"a-1","result":{', tail: '' })).toBe('a-1');
    expect(oversizeResponseId({ bytes: 0, head: '{"result":{', tail: '"x":{"id":3}}}' })).toBeUndefined();
    expect(oversizeResponseId({ bytes: 0, head: '{"result":{', tail: '}},"jsonrpc":"2.0","id":7}' })).toBe(7);
  });
});

describe('SseEventLimit', () => {
  async function pass(max: number, chunks: string[]): Promise<string> {
    const limit = new SseEventLimit(max);
    let out = '';
    limit.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const done = new Promise<void>((resolve, reject) => {
      limit.once('end', resolve);
      limit.once('error', reject);
    });
    for (const chunk of chunks) limit.write(chunk);
    limit.end();
    await done;
    return out;
  }

  it('passes events under the limit, boundaries split across chunks included', async () => {
    const event = `data: ${'y'.repeat(80)}\n`;
    await expect(pass(100, [event, '\n', event, '\r\n\r', '\n', event, '\n\n'])).resolves.toContain('yyyy');
  });

  it('fails the stream at an event over the limit', async () => {
    await expect(pass(100, ['data: ok\n\n', `data: ${'z'.repeat(60)}`, 'z'.repeat(60)])).rejects.toThrow(
      /over maxMessageBytes \(100\)/,
    );
  });
});
