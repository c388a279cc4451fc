import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { buildCatalog, type CatalogInput, type NameOwner } from '../../../../electron/core/catalog/catalog.js';

const tool = (name: string): Tool => ({ name, inputSchema: { type: 'object' } });
const backend = (backendId: string, prefix: string, tools: string[], prompts: string[] = []): CatalogInput => ({
  backendId,
  prefix,
  snapshot: {
    tools: tools.map(tool),
    prompts: prompts.map((name) => ({ name })),
    resources: [],
    resourceTemplates: [],
  },
});
const options = (owners: NameOwner[]) => ({ separator: '__', maxItems: 100, owners });
const routes = (inputs: CatalogInput[], owners: NameOwner[]) => {
  const { catalog, refused } = buildCatalog(inputs, options(owners));
  return {
    catalog,
    refused,
    tools: Object.fromEntries([...catalog.toolIndex].map(([name, o]) => [name, o.backendId])),
  };
};

describe('who owns a name', () => {
  const owners = [
    { backendId: 'imitator', prefix: '' },
    { backendId: 'other', prefix: 'other' },
  ];

  it('gives other__echo to the backend whose prefix is other, whichever started first, and warns on the imitator', () => {
    const imitator = backend('imitator', '', ['other__echo', 'plain']);
    const other = backend('other', 'other', ['echo']);
    for (const order of [
      [imitator, other],
      [other, imitator],
    ]) {
      const { tools, refused, catalog } = routes(order, owners);
      expect(refused.size).toBe(0);
      expect(tools).toEqual({ other__echo: 'other', plain: 'imitator' });
      expect(catalog.warnings.get('imitator')).toEqual([
        'tool "other__echo" dropped: it imitates backend "other", whose prefix "other" owns the names "other__..."',
      ]);
    }
  });

  it('keeps the namespace for its owner even before the owner has started', () => {
    const { tools, catalog } = routes([backend('imitator', '', ['other__echo'])], owners);
    expect(tools).toEqual({});
    expect(catalog.warnings.get('imitator')?.[0]).toContain('imitates backend "other"');
  });

  it("resolves other collisions by config order, dropping only the later backend's item and naming both", () => {
    const configOrder = [
      { backendId: 'first', prefix: '' },
      { backendId: 'second', prefix: '' },
    ];
    const first = backend('first', '', ['search']);
    const second = backend('second', '', ['search', 'fetch'], ['search']);
    for (const order of [
      [first, second],
      [second, first],
    ]) {
      const { tools, catalog, refused } = routes(order, configOrder);
      expect(refused.size).toBe(0);
      expect(tools).toEqual({ search: 'first', fetch: 'second' });
      expect(catalog.prompts).toEqual([]);
      expect(catalog.warnings.get('second')).toEqual([
        'tool "search" of backend "second" and "search" of backend "first" would both be exposed as "search"; give one backend another prefix; "first" keeps it',
        'prompt "search" of backend "second" and "search" of backend "first" would both be exposed as "search"; give one backend another prefix; "first" keeps it',
      ]);
      expect(catalog.warnings.get('first')).toBeUndefined();
    }
  });

  it('refuses an item with an empty name with a warning, keeping the rest', () => {
    const { tools, catalog } = routes([backend('a', 'a', ['', 'ok'], [''])], [{ backendId: 'a', prefix: 'a' }]);
    expect(tools).toEqual({ a__ok: 'a' });
    expect(catalog.prompts).toEqual([]);
    expect(catalog.warnings.get('a')).toEqual([
      'a tool with an empty name refused',
      'a prompt with an empty name refused',
    ]);
  });

  it('still refuses a backend whose own names sanitise to one', () => {
    const { refused } = routes([backend('dup', 'dup', ['a.b', 'a_b'])], [{ backendId: 'dup', prefix: 'dup' }]);
    expect(refused.get('dup')?.code).toBe('name_collision');
  });
});

describe('overrides in the catalog build', () => {
  const withSchema: Tool = {
    name: 'read_file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  };
  const input = (overrides: CatalogInput['overrides'], prefix = 'fs'): CatalogInput => ({
    backendId: 'fs',
    prefix,
    snapshot: {
      tools: [withSchema, tool('write_file')],
      prompts: [{ name: 'sum' }],
      resources: [],
      resourceTemplates: [],
    },
    overrides,
  });
  const build = (inputs: CatalogInput[]) => buildCatalog(inputs, options([]));

  it('renames before the prefix, and an empty prefix shows the bare override name', () => {
    const prefixed = build([input({ tools: { read_file: { name: 'read.note' } } })]).catalog;
    expect([...prefixed.toolIndex.keys()]).toEqual(['fs__read_note', 'fs__write_file']);
    expect(prefixed.toolIndex.get('fs__read_note')).toEqual({ backendId: 'fs', original: 'read_file' });
    const bare = build([input({ tools: { read_file: { name: 'read_note' } } }, '')]).catalog;
    expect([...bare.toolIndex.keys()]).toEqual(['read_note', 'write_file']);
  });

  it('drops an item whose override name clashes within the backend, with a warning, and serves the rest', () => {
    const { catalog, refused } = build([
      input({ tools: { read_file: { name: 'write_file' } }, promptsAsTools: { sum: { name: 'write_file' } } }),
    ]);
    expect(refused.size).toBe(0);
    expect([...catalog.toolIndex.keys()]).toEqual(['fs__write_file']);
    expect(catalog.toolIndex.get('fs__write_file')?.original).toBe('read_file');
    expect(catalog.warnings.get('fs')).toEqual([
      expect.stringMatching(/^tool "write_file" dropped: .*would both be exposed as "fs__write_file"/),
      expect.stringMatching(/^prompt "sum" as a tool dropped: /),
    ]);
  });

  it('reports a fixed value the schema refuses, and an offered prompt the server lacks, as warnings', () => {
    const { catalog, refused } = build([
      input({ tools: { read_file: { arguments: { path: { fixed: 7 } } } }, promptsAsTools: { gone: {} } }),
    ]);
    expect(refused.size).toBe(0);
    expect(catalog.warnings.get('fs')).toEqual([
      'override of tool "read_file": arguments.path.fixed: must be string',
      'prompt "gone" offered as a tool is not served by the backend',
    ]);
  });
});

describe('tools/list order', () => {
  it('lists backends in config order and each backend by name, whatever order its server lists in', () => {
    const owners = [
      { backendId: 'zeta', prefix: 'zeta' },
      { backendId: 'alpha', prefix: 'alpha' },
    ];
    const names = (zeta: string[], alpha: string[], started: 'zeta' | 'alpha') => {
      const inputs = [backend('zeta', 'zeta', zeta), backend('alpha', 'alpha', alpha)];
      if (started === 'alpha') inputs.reverse();
      return routes(inputs, owners).catalog.tools.map((t) => t.name);
    };
    const expected = ['zeta__Upper', 'zeta__b', 'zeta__c', 'alpha__a', 'alpha__y'];
    expect(names(['c', 'Upper', 'b'], ['y', 'a'], 'zeta')).toEqual(expected);
    expect(names(['b', 'c', 'Upper'], ['a', 'y'], 'alpha')).toEqual(expected);
  });
});
