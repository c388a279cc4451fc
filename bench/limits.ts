/**
 * What rate limits add to a call: the same tool of one stdio server called
 * through the core's router with `policy.limits` off, with two rules that
 * apply to every call (one per caller, one per tool; points so high nothing
 * is refused) in memory, and the same two rules shared in a real Redis (a
 * replica's `cluster` section; Debian's redis-server on loopback, skipped
 * without it), interleaved in one run; the limit check alone, many times, in
 * microseconds; and Redis's own command counts per call, limited and plain.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Redis } from 'ioredis';
import { silentLogger } from '../electron/core/api/index.js';
import { openCluster, parseConfig, type Cluster } from '../electron/core/platform/index.js';
import { SwitchboardCore } from '../electron/core/switchboard/index.js';
import { redisMissing, startRedis, type RedisServer } from '../test/helpers/redisServer.js';
import { printTable, summarize, timeSequential, type LatencyStats } from './lib.js';

const ROOT = resolve(import.meta.dirname, '..');
const CONFIGURABLE = join(ROOT, 'test/fixtures/servers/configurable.mjs');
const CALLS = 2000;
const BLOCK = 50;
const CHECKS = 20_000;
const TOOL = { name: 'bench__create_issue', arguments: {} };
const OPTIONS = { client: 'local' };
const LIMITS = [
  { match: {}, rate: { points: 1_000_000_000, perSeconds: 60 } },
  { match: {}, server: 'bench', tool: 'create_issue', rate: { points: 1_000_000_000, perSeconds: 60 } },
];

async function startCore(limits: unknown[] | undefined, dir: string, cluster?: Cluster): Promise<SwitchboardCore> {
  const raw = {
    mcpServers: {
      bench: { command: process.execPath, args: [CONFIGURABLE], env: { FIXTURE_TOOLS: 'create_issue,plain' } },
    },
    ...(limits ? { policy: { limits } } : {}),
  };
  const { config, problems } = parseConfig(raw);
  if (!config) throw new Error(JSON.stringify(problems));
  const core = new SwitchboardCore(
    config,
    {
      environment: process.env,
      logger: silentLogger,
      clientInfo: { name: 'bench', version: '0' },
      stateDir: dir,
    },
    cluster ? { cluster } : {},
  );
  await core.start();
  return core;
}

/** One call as the frontend makes it: the limit check, then the routed call. */
async function call(core: SwitchboardCore): Promise<void> {
  await core.router.limitTool(TOOL, OPTIONS);
  await core.router.callTool(TOOL, OPTIONS);
}

/** Each of `runs` in turn, `block` calls at a time, until each made `n`. */
async function interleavedRuns(n: number, block: number, runs: (() => Promise<unknown>)[]): Promise<LatencyStats[]> {
  const samples = runs.map((): number[] => []);
  for (let done = 0; done < n; done += block) {
    for (const [index, run] of runs.entries())
      samples[index]!.push(...(await timeSequential(Math.min(block, n - done), run)));
  }
  return samples.map((each) => summarize(each));
}

/**
 * Commands clients sent Redis so far (round trips: INFO itself left out, and
 * the commands a script runs inside Redis counted as the one EVALSHA they are).
 */
async function redisRoundTrips(probe: Redis): Promise<number> {
  const stats = await probe.info('commandstats');
  const calls = new Map(
    [...stats.matchAll(/^cmdstat_([\w|]+):calls=(\d+)/gm)].map(([, name, n]) => [name!, Number(n)]),
  );
  // Inside rate-limiter-flexible's script: SET NX, INCRBY, PTTL (and PEXPIRE when a window starts).
  const inside = ['set', 'incrby', 'pttl', 'pexpire'].reduce((sum, name) => sum + (calls.get(name) ?? 0), 0);
  const all = [...calls].filter(([name]) => name !== 'info').reduce((sum, [, n]) => sum + n, 0);
  return all - inside;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-limits-'));
const missing = redisMissing();
if (missing) console.log(`(Redis rows skipped: ${missing})`);
// Persistence as docs/deploy.md configures it: AOF, fsync once a second.
const redis: RedisServer | undefined = missing ? undefined : await startRedis({ appendfsync: 'everysec' });
const cluster = redis
  ? await openCluster(
      { redis: { url: redis.url, keyPrefix: 'bench:', connectTimeoutMs: 2_000, commandTimeoutMs: 1_000 } },
      { environment: process.env, warn: () => undefined, secret: () => undefined },
    )
  : undefined;
const probe = redis ? new Redis(redis.url) : undefined;
const off = await startCore(undefined, join(dir, 'off'));
const on = await startCore(LIMITS, join(dir, 'on'));
const shared = cluster ? await startCore(LIMITS, join(dir, 'shared'), cluster) : undefined;
const cores = [off, on, ...(shared ? [shared] : [])];
try {
  for (let i = 0; i < 100; i++) await Promise.all(cores.map((core) => call(core)));
  const [withoutLimits, withLimits, withRedis] = await interleavedRuns(
    CALLS,
    BLOCK,
    cores.map((core) => () => call(core)),
  );
  const checks: number[] = [];
  for (let i = 0; i < CHECKS; i++) {
    const at = performance.now();
    await on.router.limitTool(TOOL, OPTIONS);
    checks.push((performance.now() - at) * 1000);
  }
  const check = summarize(checks);
  const ms = (value: number) => value.toFixed(3);
  const added = (label: string, stats: LatencyStats) => [
    label,
    ms(stats.p50 - withoutLimits!.p50),
    ms(stats.p99 - withoutLimits!.p99),
    ms(stats.mean - withoutLimits!.mean),
  ];
  printTable(
    `rate limits: a tools/call through the router, ${CALLS} each, interleaved (ms)`,
    ['', 'p50', 'p99', 'mean'],
    [
      ['limits off', ms(withoutLimits!.p50), ms(withoutLimits!.p99), ms(withoutLimits!.mean)],
      ['2 rules applying, in memory', ms(withLimits!.p50), ms(withLimits!.p99), ms(withLimits!.mean)],
      ...(withRedis ? [['2 rules applying, in Redis', ms(withRedis.p50), ms(withRedis.p99), ms(withRedis.mean)]] : []),
      added('added: memory', withLimits!),
      ...(withRedis ? [added('added: Redis', withRedis)] : []),
    ],
  );
  printTable(
    `the limit check alone (2 rules applying, in memory), ${CHECKS} checks (µs)`,
    ['', 'p50', 'p99', 'mean'],
    [['limitTool', check.p50.toFixed(1), check.p99.toFixed(1), check.mean.toFixed(1)]],
  );
  if (shared && probe) {
    const PLAIN = 200;
    const plainTool = { name: 'bench__plain', arguments: {} };
    const before = await redisRoundTrips(probe);
    for (let i = 0; i < PLAIN; i++) await shared.router.callTool(plainTool, OPTIONS).catch(() => undefined);
    const plain = (await redisRoundTrips(probe)) - before;
    const limitedBefore = await redisRoundTrips(probe);
    for (let i = 0; i < PLAIN; i++) await call(shared);
    const limited = (await redisRoundTrips(probe)) - limitedBefore;
    printTable(
      `Redis round trips per call on a replica (${PLAIN} calls each; from Redis's INFO commandstats)`,
      ['', 'round trips per call'],
      [
        ['tools/call, no rule applies', (plain / PLAIN).toFixed(2)],
        ['tools/call, 2 rules applying', (limited / PLAIN).toFixed(2)],
      ],
    );
  }
} finally {
  await Promise.all(cores.map((core) => core.dispose()));
  probe?.disconnect();
  await cluster?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
}
