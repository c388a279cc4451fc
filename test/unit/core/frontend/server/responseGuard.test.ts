import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../../../../electron/core/platform/deps.js';
import {
  guardResponses,
  nestsDeeperThan,
  relayable,
} from '../../../../../electron/core/frontend/server/responseGuard.js';

function deep(depth: number): unknown {
  return JSON.parse(`${'['.repeat(depth)}1${']'.repeat(depth)}`);
}

/** A transport whose send serializes, as the SDK's do. */
function serializingTransport(sent: string[]): Transport {
  return {
    start: async () => undefined,
    close: async () => undefined,
    send: async (message: JSONRPCMessage) => {
      sent.push(JSON.stringify(message));
    },
  };
}

describe('responseGuard', () => {
  it('measures nesting without recursing', () => {
    expect(nestsDeeperThan(deep(10), 10)).toBe(false);
    expect(nestsDeeperThan(deep(11), 10)).toBe(true);
    expect(nestsDeeperThan(deep(100_000), 256)).toBe(true);
    expect(nestsDeeperThan('text', 0)).toBe(false);
  });

  it('passes serializable results through and refuses ones that cannot be sent', () => {
    const fine = { content: [], structuredContent: deep(300) };
    expect(relayable(fine, 'x', silentLogger)).toBe(fine);
    expect(() => relayable({ structuredContent: deep(20_000) }, 'tools/call t', silentLogger)).toThrow(
      /the answer to tools\/call t cannot be relayed: it is nested too deeply/,
    );
  });

  it('replaces a response that fails to send with an error for the same id', async () => {
    const sent: string[] = [];
    const warnings: string[] = [];
    const transport = guardResponses(serializingTransport(sent), { ...silentLogger, warn: (l) => warnings.push(l) });
    await transport.send({ jsonrpc: '2.0', id: 7, result: { deep: deep(20_000) } } as JSONRPCMessage);
    expect(JSON.parse(sent[0] ?? '')).toMatchObject({
      id: 7,
      error: { code: -32603, message: expect.stringContaining('could not be sent') },
    });
    expect(warnings).toHaveLength(1);
    // A notification that fails is the SDK's to report.
    await expect(
      transport.send({ jsonrpc: '2.0', method: 'n', params: { deep: deep(20_000) } } as JSONRPCMessage),
    ).rejects.toThrow(RangeError);
  });
});
