/**
 * `approve` in cluster mode, against a real Redis and the built CLI and
 * `serve`: with no replica running here it writes nothing (not this
 * machine's approvals file, not Redis) and says why and where to run it;
 * with a replica running here it approves through it, and the approval is
 * the cluster's record in Redis.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli } from '../../helpers/cli.js';
import { fixture, nodeServer, tempDir } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';
import { redisMissing, startRedis, type RedisServer } from '../../helpers/redisServer.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

const missing = redisMissing();
if (missing && process.env['CI']) throw new Error(missing);

const TOKEN = 'review-cli-cluster-token-0123456789';

describe.skipIf(missing !== undefined)('approve in cluster mode', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let redis: RedisServer;
  let probe: Redis;
  let configPath: string;
  let env: Record<string, string>;
  let serve: SpawnedServer | undefined;
  const cli = (...args: string[]) => runCli(args, env);
  const approvalsFile = () => join(dir.path, 'state', 'mcp-switchboard', 'server-approvals.json');

  beforeAll(async () => {
    dir = await tempDir();
    redis = await startRedis();
    probe = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    env = {
      HOME: dir.path,
      XDG_CONFIG_HOME: join(dir.path, 'xdg'),
      XDG_STATE_HOME: join(dir.path, 'state'),
      SWITCHBOARD_TOKEN: TOKEN,
      SWITCHBOARD_NO_BROWSER: '1',
      SWITCHBOARD_REDIS_URL: redis.url,
    };
    // The default config file: the one `approve` (which takes no --config) reads.
    await mkdir(join(dir.path, 'xdg', 'mcp-switchboard'), { recursive: true });
    configPath = join(dir.path, 'xdg', 'mcp-switchboard', 'config.json');
    await writeFile(
      configPath,
      JSON.stringify({
        cluster: { redis: { url: '${SWITCHBOARD_REDIS_URL}', keyPrefix: 'sb-cli:' } },
        mcpServers: { base: nodeServer(fixture('configurable.mjs')) },
      }),
    );
  }, 30_000);

  afterAll(async () => {
    probe?.disconnect();
    await serve?.stop();
    await redis?.stop();
    await dir?.cleanup();
  });

  it('with no replica running here, writes nothing and says where to run it', async () => {
    const refused = await cli('approve', 'fresh');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('no Switchboard is running');
    expect(refused.stderr).toContain('this config has a "cluster" section');
    expect(refused.stderr).toContain('nothing here was written');
    expect(refused.stderr).toContain('kubectl exec deploy/<release> -- mcp-switchboard approve fresh');
    // Not the Redis URL (it may carry a password).
    expect(refused.stderr).not.toContain(redis.url);
    expect(existsSync(approvalsFile())).toBe(false);
    expect(await probe.exists('sb-cli:reviews:approvals')).toBe(0);
    // quarantine says the same.
    const quarantine = await cli('quarantine', 'base');
    expect(quarantine.code).toBe(1);
    expect(quarantine.stderr).toContain('kubectl exec deploy/<release> -- mcp-switchboard quarantine base');
  });

  it('with a replica running here, approves through it into the cluster record in Redis', async () => {
    serve = await spawnServer(
      [BIN, 'serve', '--config', configPath, '--port', '0', '--no-open'],
      /MCP endpoint: (\S+)/,
      env,
    );
    // The cluster's first start seeds its config's servers as approved.
    await waitUntil(async () => (await probe.hexists('sb-cli:reviews:approvals', 'base')) === 1, {
      description: 'base seeded in Redis',
      timeoutMs: 20_000,
    });
    const saved = JSON.parse(await readFile(configPath, 'utf8')) as { mcpServers: Record<string, unknown> };
    saved.mcpServers['fresh'] = nodeServer(fixture('configurable.mjs'), [], { env: { FIXTURE_TOOLS: 'echo' } });
    await writeFile(configPath, JSON.stringify(saved));
    await waitUntil(async () => (await cli('review', 'fresh')).stdout.includes('QUARANTINED'), {
      description: 'fresh to be started and quarantined',
      timeoutMs: 20_000,
    });
    expect(await probe.hexists('sb-cli:reviews:approvals', 'fresh')).toBe(0);
    expect(await cli('approve', 'fresh')).toMatchObject({
      code: 0,
      stdout: 'fresh: approved; its 1 tool(s) are served\n',
    });
    expect(await probe.hexists('sb-cli:reviews:approvals', 'fresh')).toBe(1);
  }, 60_000);
});
