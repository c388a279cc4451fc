/**
 * Link rewriting runs on tool results the proxy relays without validating
 * them (the client's SDK validates): odd blocks must pass through as they are,
 * not turn a backend's odd answer into a proxy crash.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../../../electron/core/catalog/catalog.js';
import { rewriteToolResult } from '../../../../electron/core/catalog/rewrite.js';

describe('rewriteToolResult', () => {
  it('passes malformed blocks and contents through untouched', () => {
    const content = [
      null,
      'text',
      { type: 'resource' },
      { type: 'resource', resource: {} },
      { type: 'resource_link', uri: 5 },
    ];
    const result = { content } as unknown as CallToolResult;
    expect(rewriteToolResult(new Catalog(), 'b', result).content).toEqual(content);
    const noContent = { structuredContent: { a: 1 } } as unknown as CallToolResult;
    expect(rewriteToolResult(new Catalog(), 'b', noContent)).toBe(noContent);
  });
});
