/**
 * The endpoint's Mcp-Param-* check picks the tool from the calling client's
 * own tools/list: a listed tool with declarations is checked, a tool the
 * client never listed (found by search) or one without declarations is not,
 * and each client is checked against its own list.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Tool } from '@modelcontextprotocol/server';
import { ParamHeaderCheck } from '../../../../../electron/core/frontend/http/paramHeaderCheck.js';

const headered = (name: string): Tool => ({
  name,
  inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
});
const plain: Tool = { name: 'plain', inputSchema: { type: 'object', properties: { region: { type: 'string' } } } };

const lists: Record<string, Tool[]> = { alice: [headered('a__locate'), plain], bob: [plain] };
const check = new ParamHeaderCheck((client) => lists[client] ?? []);
const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
const call = (name: string) => ({ name, arguments: { region: 'eu' } });

describe('ParamHeaderCheck', () => {
  it('checks a listed tool that declares headers', () => {
    expect(check.mismatch('alice', call('a__locate'), request({}))?.header).toBe('Mcp-Param-Region');
    expect(check.mismatch('alice', call('a__locate'), request({ 'mcp-param-region': 'eu' }))).toBeUndefined();
    expect(check.mismatch('alice', call('a__locate'), request({ 'mcp-param-region': 'us' }))?.header).toBe(
      'Mcp-Param-Region',
    );
  });

  it('leaves alone tools without declarations, tools the client does not list, and malformed params', () => {
    expect(check.mismatch('alice', call('plain'), request({}))).toBeUndefined();
    expect(check.mismatch('bob', call('a__locate'), request({}))).toBeUndefined();
    expect(check.mismatch('alice', null, request({}))).toBeUndefined();
    expect(check.mismatch('alice', { name: 42 }, request({}))).toBeUndefined();
  });

  it('follows a client list that changes (the exposure hands out a new array)', () => {
    let current: Tool[] = [plain];
    const live = new ParamHeaderCheck(() => current);
    expect(live.mismatch('c', call('c__locate'), request({}))).toBeUndefined();
    current = [plain, headered('c__locate')];
    expect(live.mismatch('c', call('c__locate'), request({}))?.header).toBe('Mcp-Param-Region');
  });
});
