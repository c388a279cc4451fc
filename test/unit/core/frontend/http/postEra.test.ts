/**
 * The endpoint's era of a POST: the SDK's own classification, except that a
 * message claiming the 2026-07-28 envelope is `claimed` without its envelope
 * validated, and such a message is one the SDK never serves as 2025-era.
 */
import type { IncomingMessage } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { classifiedEra, postEra } from '../../../../../electron/core/frontend/http/postEra.js';

const MODERN = '2026-07-28';
const envelope = {
  [PROTOCOL_VERSION_META_KEY]: MODERN,
  [CLIENT_INFO_META_KEY]: { name: 'probe', version: '1' },
  [CLIENT_CAPABILITIES_META_KEY]: {},
};
const call = (meta?: Record<string, unknown>, method = 'tools/call'): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  params: { name: 'echo', arguments: {}, ...(meta ? { _meta: meta } : {}) },
});
const req = (headers: Record<string, string> = {}): IncomingMessage => ({ headers }) as unknown as IncomingMessage;

describe('postEra', () => {
  it('classifies as the SDK does a message without the envelope claim', () => {
    expect(postEra(req({ 'mcp-protocol-version': '2025-11-25' }), call())).toBe('legacy');
    expect(postEra(req(), call(undefined, 'initialize'))).toBe('legacy');
    expect(postEra(req({ 'mcp-protocol-version': MODERN }), call())).toBe('reject');
    expect(postEra(req(), [call()])).toBe('legacy');
    expect(postEra(req(), { jsonrpc: '2.0', id: 1, result: {} })).toBe('legacy');
    expect(postEra(req(), { nonsense: true })).toBe('reject');
  });

  it('leaves a claimed envelope to the SDK handler, which finds it modern or rejects it, never 2025-era', () => {
    const bodies = [
      call(envelope),
      call({ ...envelope, [CLIENT_INFO_META_KEY]: 'not an object' }),
      call({ [PROTOCOL_VERSION_META_KEY]: 42 }),
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: envelope } },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: envelope }, extra: 1 },
    ];
    for (const body of bodies) {
      const headers = req({ 'mcp-protocol-version': MODERN, 'mcp-method': String(body.method) });
      expect(postEra(headers, body)).toBe('claimed');
      expect(classifiedEra(headers, body)).not.toBe('legacy');
    }
    expect(classifiedEra(req({ 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call' }), call(envelope))).toBe(
      'modern',
    );
    expect(classifiedEra(req(), call({ [PROTOCOL_VERSION_META_KEY]: 42 }))).toBe('reject');
  });

  it('classifies fully what could still be 2025-era: an initialize, or a body carrying result or error', () => {
    // An initialize whose envelope is invalid is a 2025-era handshake to the SDK.
    const badInit = call({ [PROTOCOL_VERSION_META_KEY]: MODERN }, 'initialize');
    expect(postEra(req(), badInit)).toBe('legacy');
    const answer = { jsonrpc: '2.0', id: 1, result: {}, params: { _meta: envelope } };
    expect(postEra(req(), answer)).toBe(classifiedEra(req(), answer));
  });
});
