/**
 * Names that would clash are dropped from the backend later in the config,
 * with a warning that names both sides; names of one backend that clash, and
 * the proxy's limits, refuse the backend with an error, while the backends
 * admitted before keep working. Original resource URIs may repeat
 * across backends: each is advertised under its backend's ID.
 */
import { describe, expect, it } from 'vitest';
import { firstText, fixture, nodeServer, startProxy } from '../../helpers/harness.js';

const configurable = (env: Record<string, string>, extra: Record<string, unknown> = {}) =>
  nodeServer(fixture('configurable.mjs'), [], { env, ...extra });

describe('collisions and limits', () => {
  it("drops the later backend's tool whose exposed name is already in use, with a warning naming both", async () => {
    const proxy = await startProxy({
      mcpServers: {
        first: configurable({ FIXTURE_TOOLS: 'search' }, { prefix: '' }),
      },
    });
    try {
      // The second one comes after the first in the config, so the first keeps "search".
      expect(await startSecond(proxy, 'second', { FIXTURE_TOOLS: 'search,other' }, '', true)).toBe(undefined);
      const second = proxy.core.health().find((backend) => backend.id === 'second');
      expect(second?.warnings).toEqual([
        expect.stringMatching(
          /tool "search" of backend "second" and "search" of backend "first" would both be exposed as "search".*"first" keeps it/,
        ),
      ]);
      const client = await proxy.connect();
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['other', 'search']);
      expect(firstText(await client.callTool({ name: 'search', arguments: {} }))).toBe('search:{}');
    } finally {
      await proxy.close();
    }
  });

  it('refuses two names of one backend that sanitise to the same exposed name', async () => {
    const proxy = await startProxy({ mcpServers: { dup: configurable({ FIXTURE_TOOLS: 'a.b,a_b' }) } });
    try {
      const dup = proxy.core.health()[0];
      expect(dup).toMatchObject({ status: 'down', lastError: { code: 'name_collision' } });
      expect(dup?.lastError?.message).toMatch(
        /"a_b" of backend "dup" and "a.b" of backend "dup" would both be exposed as "dup__a_b"/,
      );
    } finally {
      await proxy.close();
    }
  });

  it('admits a backend exposing a resource URI another backend exposes too, each under its own advertised URI', async () => {
    const proxy = await startProxy({
      mcpServers: { one: configurable({ FIXTURE_RESOURCES: 'file:///shared/readme.md,file:///one.md' }) },
    });
    try {
      expect(await startSecond(proxy, 'two', { FIXTURE_RESOURCES: 'file:///shared/readme.md' }, undefined, true)).toBe(
        undefined,
      );
      const client = await proxy.connect();
      const { resources } = await client.listResources();
      expect(resources.map((resource) => resource.uri).sort()).toEqual([
        'mcp-proxy://one/file:///one.md',
        'mcp-proxy://one/file:///shared/readme.md',
        'mcp-proxy://two/file:///shared/readme.md',
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('refuses backends beyond maxBackends and items beyond maxCatalogItems', async () => {
    const proxy = await startProxy({
      proxy: { maxBackends: 2, maxCatalogItems: 5 },
      mcpServers: {
        a: configurable({ FIXTURE_TOOLS: 't1,t2,t3' }),
        b: configurable({ FIXTURE_TOOLS: 'u1,u2,u3' }),
        c: configurable({ FIXTURE_TOOLS: 'v1' }),
      },
    });
    try {
      const health = Object.fromEntries(proxy.core.health().map((backend) => [backend.id, backend]));
      expect(health['c']).toMatchObject({ status: 'down', lastError: { code: 'backend_limit' } });
      expect(health['c']?.lastError?.message).toContain('maxBackends (2)');
      // a and b connect in parallel; whichever is admitted second pushes the total to 6 > 5.
      const refused = [health['a'], health['b']].filter((backend) => backend?.status === 'down');
      expect(refused).toHaveLength(1);
      expect(refused[0]?.lastError).toMatchObject({
        code: 'catalog_limit',
        message: expect.stringMatching(/brings 3 items; with the 3 already exposed that exceeds maxCatalogItems \(5\)/),
      });
      expect(proxy.core.catalog().size).toBe(3);
    } finally {
      await proxy.close();
    }
  });
});

/** Adds a backend once the first is up (so the admission order is known); resolves to the refusal. */
async function startSecond(
  proxy: Awaited<ReturnType<typeof startProxy>>,
  id: string,
  env: Record<string, string>,
  prefix?: string,
  admitted = false,
): Promise<unknown> {
  const added = proxy.core.addBackend(id, configurable(env, prefix === undefined ? {} : { prefix }));
  const error = await added.then(
    () => undefined,
    (refusal: unknown) => refusal,
  );
  // A refused backend is not added at all.
  if (admitted) expect(proxy.core.health().map((backend) => backend.id)).toContain(id);
  else expect(proxy.core.health().map((backend) => backend.id)).not.toContain(id);
  return error;
}
