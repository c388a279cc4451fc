/**
 * One server's own view of the merged catalog: its own names map to the merged
 * ones and back, its URIs are its own, and what the merged catalog dropped (a
 * name another server owns) stays out, so the view never reaches around it.
 */
import { describe, expect, it } from 'vitest';
import { buildCatalog, type CatalogInput } from '../../../../electron/core/catalog/catalog.js';
import { ServerCatalog } from '../../../../electron/core/catalog/serverCatalog.js';

const tool = (name: string) => ({ name, inputSchema: { type: 'object' as const } });
const input = (backendId: string, prefix: string, tools: string[]): CatalogInput => ({
  backendId,
  prefix,
  snapshot: {
    tools: tools.map(tool),
    prompts: [],
    resources: [{ uri: 'file:///a', name: 'a' }],
    resourceTemplates: [],
  },
});

describe('ServerCatalog', () => {
  const inputs = [
    input('first', '', ['echo']),
    input('gh', 'gh', ['create.issue', 'echo']),
    input('bare', '', ['echo', 'ping']),
  ];
  const { catalog } = buildCatalog(inputs, { separator: '__', maxItems: 100 });

  it("maps the server's own names to the merged ones and back", () => {
    const scope = new ServerCatalog('gh', catalog, inputs[1], '__');
    expect(scope.own.tools.map((t) => t.name).sort()).toEqual(['create_issue', 'echo']);
    expect(scope.mergedName('tools', 'create_issue')).toBe('gh__create_issue');
    expect(scope.ownName('tools', 'gh__echo')).toBe('echo');
    expect(scope.ownName('tools', 'echo')).toBeUndefined();
  });

  it('leaves out what the merged catalog dropped, and maps nothing of another server', () => {
    // `bare`'s echo lost to `first`'s (earlier in the config): not reachable through bare's endpoint either.
    const scope = new ServerCatalog('bare', catalog, inputs[2], '__');
    expect(scope.mergedName('tools', 'echo')).toBeUndefined();
    expect(scope.mergedName('tools', 'ping')).toBe('ping');
  });

  it("keeps the server's own URIs, mapping only its own advertised ones back", () => {
    const scope = new ServerCatalog('gh', catalog, inputs[1], '__');
    expect(scope.advertised('file:///a')).toBe('mcp-proxy://gh/file:///a');
    expect(scope.ownUri('mcp-proxy://gh/file:///a')).toBe('file:///a');
    expect(scope.ownUri('mcp-proxy://first/file:///a')).toBeUndefined();
  });

  it('is empty for a server that is not published', () => {
    const scope = new ServerCatalog('gone', catalog, undefined, '__');
    expect(scope.own.size).toBe(0);
  });
});
