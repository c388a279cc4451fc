/**
 * What Redis adds to tasks (issue 28): the creation of a task Switchboard
 * runs itself (a task-augmented tools/call of a plain stdio tool, answered
 * once the task is acknowledged) in one process (memory) and in a replica
 * (its record written to Redis first), interleaved in one run; and tasks/get
 * of an ended task through the replica that holds it against through
 * another one (answered from the Redis record). A real redis-server
 * (Debian's) is started for the run; without one the bench says so and
 * stops.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { silentLogger } from '../electron/core/api/index.js';
import { openCluster, parseConfig } from '../electron/core/platform/index.js';
import { SwitchboardCore } from '../electron/core/switchboard/index.js';
import { redisMissing, startRedis } from '../test/helpers/redisServer.js';
import { printTable, summarize, type LatencyStats } from './lib.js';

const ROOT = resolve(import.meta.dirname, '..');
const CONFIGURABLE = join(ROOT, 'test/fixtures/servers/configurable.mjs');
const ROUNDS = 400;
const BLOCK = 20;
const TOOL = { name: 'bench__create_issue', arguments: {} };
const OPTIONS = { client: 'local' };

async function startCore(dir: string, cluster?: Awaited<ReturnType<typeof openCluster>>): Promise<SwitchboardCore> {
  const raw = {
    mcpServers: { bench: { command: process.execPath, args: [CONFIGURABLE], env: { FIXTURE_TOOLS: 'create_issue' } } },
  };
  const { config, problems } = parseConfig(raw);
  if (!config) throw new Error(JSON.stringify(problems));
  const core = new SwitchboardCore(
    config,
    { environment: process.env, logger: silentLogger, clientInfo: { name: 'bench', version: '0' }, stateDir: dir },
    cluster ? { cluster } : {},
  );
  await core.start();
  return core;
}

/** Creates a task and times it; waits (untimed) for its end, so runs do not pile up. */
async function timedCreate(core: SwitchboardCore, samples: number[]): Promise<string> {
  const at = performance.now();
  const { task } = await core.tasks.create(TOOL, 60_000, OPTIONS);
  samples.push(performance.now() - at);
  await core.tasks.registry.settled(task.taskId);
  return task.taskId;
}

async function timed(samples: number[], fn: () => Promise<unknown>): Promise<void> {
  const at = performance.now();
  await fn();
  samples.push(performance.now() - at);
}

const missing = redisMissing();
if (missing) {
  console.log(`\n== tasks with replicas: skipped (${missing}) ==`);
  process.exit(0);
}
const redis = await startRedis();
const dir = mkdtempSync(join(tmpdir(), 'bench-cluster-tasks-'));
const open = (replicaId: string) =>
  openCluster(
    { redis: { url: redis.url, keyPrefix: 'bench:', connectTimeoutMs: 2_000, commandTimeoutMs: 1_000 }, replicaId },
    { environment: {}, warn: () => undefined, secret: () => undefined },
  );
const [clusterA, clusterB] = await Promise.all([open('a'), open('b')]);
const memory = await startCore(join(dir, 'memory'));
const replicaA = await startCore(join(dir, 'a'), clusterA);
const replicaB = await startCore(join(dir, 'b'), clusterB);
/** One interleaved run with Redis's append-only file synced as `fsync` says. */
async function measure(fsync: 'always' | 'everysec'): Promise<void> {
  await clusterA.redis.config('SET', 'appendfsync', fsync);
  const created = { memory: [] as number[], redis: [] as number[] };
  const got = { here: [] as number[], other: [] as number[] };
  for (let done = 0; done < ROUNDS; done += BLOCK) {
    for (let i = 0; i < BLOCK; i++) await timedCreate(memory, created.memory);
    const ids: string[] = [];
    for (let i = 0; i < BLOCK; i++) ids.push(await timedCreate(replicaA, created.redis));
    for (const id of ids) await timed(got.here, () => replicaA.tasks.get(id, OPTIONS.client));
    for (const id of ids) await timed(got.other, () => replicaB.tasks.get(id, OPTIONS.client));
  }
  const ms = (value: number) => value.toFixed(3);
  const row = (name: string, stats: LatencyStats) => [name, ms(stats.p50), ms(stats.p99), ms(stats.mean)];
  const [inMemory, inRedis] = [summarize(created.memory), summarize(created.redis)];
  printTable(
    `tasks: creating one (a task-augmented tools/call run by Switchboard), ${ROUNDS} each, interleaved; Redis appendfsync ${fsync} (ms)`,
    ['', 'p50', 'p99', 'mean'],
    [
      row('one process (memory)', inMemory),
      row('replica (record in Redis)', inRedis),
      [
        'added by Redis',
        ms(inRedis.p50 - inMemory.p50),
        ms(inRedis.p99 - inMemory.p99),
        ms(inRedis.mean - inMemory.mean),
      ],
    ],
  );
  printTable(
    `tasks: tasks/get of an ended task, ${ROUNDS} each; Redis appendfsync ${fsync} (ms)`,
    ['', 'p50', 'p99', 'mean'],
    [row('through its own replica', summarize(got.here)), row('through another (Redis record)', summarize(got.other))],
  );
}

try {
  for (let i = 0; i < 50; i++) await Promise.all([timedCreate(memory, []), timedCreate(replicaA, [])]);
  await measure('always');
  await measure('everysec');
} finally {
  await Promise.all([memory.dispose(), replicaA.dispose(), replicaB.dispose()]);
  await Promise.all([clusterA.close(), clusterB.close()]);
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
