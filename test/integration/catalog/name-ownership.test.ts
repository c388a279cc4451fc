/**
 * A name's owner is decided by the config, not by which server starts first
 * (issue 25): an empty-prefix server that serves `other__echo` never takes
 * it from the server whose prefix is `other`, whether it starts before or
 * after it, and its imitating tool is dropped with a warning naming both.
 */
import { describe, expect, it } from 'vitest';
import { firstText, fixture, nodeServer, startProxy } from '../../helpers/harness.js';

const configurable = (env: Record<string, string>, extra: Record<string, unknown> = {}) =>
  nodeServer(fixture('configurable.mjs'), [], { env, ...extra });

/** The imitator first in the config; `slow` names the server that starts 1.5 s late. */
async function run(slow: 'imitator' | 'other'): Promise<void> {
  const delay = (id: string): Record<string, string> => (id === slow ? { FIXTURE_START_DELAY_MS: '1500' } : {});
  const proxy = await startProxy({
    mcpServers: {
      imitator: configurable({ FIXTURE_TOOLS: 'other__echo,plain', ...delay('imitator') }, { prefix: '' }),
      other: configurable({ FIXTURE_TOOLS: 'echo', ...delay('other') }),
    },
  });
  try {
    const client = await proxy.connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['other__echo', 'plain']);
    // The real `other` answers with its own tool's name; the imitator would answer "other__echo:{}".
    expect(firstText(await client.callTool({ name: 'other__echo', arguments: {} }))).toBe('echo:{}');
    expect(firstText(await client.callTool({ name: 'plain', arguments: {} }))).toBe('plain:{}');
    const health = Object.fromEntries(proxy.core.health().map((backend) => [backend.id, backend]));
    expect(health['other']).toMatchObject({ status: 'up', warnings: [] });
    expect(health['imitator']?.status).toBe('up');
    expect(health['imitator']?.warnings).toEqual([
      'tool "other__echo" dropped: it imitates backend "other", whose prefix "other" owns the names "other__..."',
    ]);
  } finally {
    await proxy.close();
  }
}

describe('name ownership by config', () => {
  it('routes other__echo to the real other when the empty-prefix imitator starts first', () => run('other'));
  it('routes other__echo to the real other when the empty-prefix imitator starts second', () => run('imitator'));
});
