// Replicas behind a load balancer (issue 28), saved to bench/results/replicas.json:
// (1) throughput and p50/p99 of 2026-07-28 tools/call, one replica reached directly, one behind its
//     own HAProxy and three behind a real HAProxy, the same client load (CONCURRENCY calls in
//     flight), alternating rounds, with the CPU each side's processes used: calls per serve
//     CPU-second is what one core gives; three replicas' against one replica's behind the same kind
//     of balancer is what running replicas costs per core (the balancer's own hop, a new connection
//     per request, is in both). The replicas run in cluster mode (a `cluster` section, one real
//     Redis) when redis-server is installed, as a team deploys them;
// (2) the time from a replica's kill -9 to HAProxy taking it out (health checks every 200 ms), and
//     to the last call that failed, under a small steady load;
// (3) 2025-era sessions: the share whose next request finds its session gone (404) when HAProxy keeps
//     them by a stick table learnt from the response (the documented way) and when it hashes the
//     Mcp-Session-Id header (what ingress-nginx's upstream-hash-by does).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/client';
import { fixture, nodeServer } from '../test/helpers/harness.js';
import { freePort, HAPROXY, haproxyAvailable, haproxyConfig, startCluster } from '../test/helpers/replicas.js';
import type { Cluster } from '../test/helpers/replicas.js';
import { eraClient, pause, REPLICA_TOOL, sessionGone, startLoad } from '../test/helpers/replicaLoad.js';
import { redisMissing, startRedis } from '../test/helpers/redisServer.js';
import { printTable, summarize } from './lib.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RESULTS = join(ROOT, 'bench/results/replicas.json');
const CONCURRENCY = 16;
const ROUND_MS = 2500;
const ROUNDS = 3;
const KILLS = 2;
const SESSIONS = 30;
const TICKS_PER_SECOND = 100;

/** CPU seconds process `pid` has used so far (user + system). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / TICKS_PER_SECOND;
}

/** One round: CONCURRENCY calls in flight for ROUND_MS over `clients`; latencies and CPU of `pids`. */
async function round(clients: Client[], pids: number[]) {
  const before = await Promise.all(pids.map(cpuSeconds));
  const samples: number[] = [];
  const started = performance.now();
  const deadline = started + ROUND_MS;
  const worker = async (client: Client): Promise<void> => {
    while (performance.now() < deadline) {
      const t = performance.now();
      await client.callTool({ name: REPLICA_TOOL, arguments: { name: 'REPLICA' } });
      samples.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => worker(clients[i % clients.length]!)));
  const seconds = (performance.now() - started) / 1000;
  const after = await Promise.all(pids.map(cpuSeconds));
  const perPid = after.map((value, i) => value - (before[i] ?? 0));
  const cpu = perPid.reduce((sum, value) => sum + value, 0);
  return { calls: samples.length, seconds, cpu, samples, perPid };
}

/** (1) Direct to r1, r1 alone behind its own HAProxy, and all three through HAProxy, alternating rounds. */
async function throughputRounds(cluster: Cluster) {
  const replicaUrl = `http://127.0.0.1:${cluster.replicas[0]!.port}/mcp`;
  const lone = await balancer(cluster.replicas.slice(0, 1), 'stick');
  const clientsOf = (url: string) => Promise.all(Array.from({ length: 4 }, () => eraClient(url, 'modern')));
  const [direct, alone, balanced] = await Promise.all([
    clientsOf(replicaUrl),
    clientsOf(lone.url),
    clientsOf(cluster.url),
  ]);
  const servePids = cluster.replicas.map((replica) => replica.child!.pid!);
  const empty = () => ({
    calls: 0,
    seconds: 0,
    cpu: 0,
    balancerCpu: 0,
    samples: [] as number[],
    perPid: servePids.map(() => 0),
  });
  const plan = [
    { clients: direct, pids: servePids.slice(0, 1), balancerPid: undefined, replicas: 1 },
    { clients: alone, pids: servePids.slice(0, 1), balancerPid: lone.pid, replicas: 1 },
    { clients: balanced, pids: servePids, balancerPid: cluster.haproxyPid, replicas: servePids.length },
  ];
  for (const step of plan) await round(step.clients, step.pids); // warm-up: JIT, connections
  // What each replica uses with no call at all (HAProxy's health checks of it, its timers), per second.
  const idleBefore = await Promise.all(servePids.map(cpuSeconds));
  const idleStarted = performance.now();
  await pause(ROUND_MS);
  const idleSeconds = (performance.now() - idleStarted) / 1000;
  const idleAfter = await Promise.all(servePids.map(cpuSeconds));
  const idlePerReplica =
    idleAfter.reduce((sum, value, i) => sum + value - (idleBefore[i] ?? 0), 0) / servePids.length / idleSeconds;
  /** ROUNDS alternating rounds of every side of the plan. */
  const measure = async () => {
    const sides = plan.map(() => empty());
    for (let i = 0; i < ROUNDS; i++) {
      for (const [n, { clients, pids, balancerPid }] of plan.entries()) {
        const side = sides[n]!;
        const balancerBefore = balancerPid === undefined ? 0 : await cpuSeconds(balancerPid);
        const one = await round(clients, pids);
        side.calls += one.calls;
        side.seconds += one.seconds;
        side.cpu += one.cpu;
        one.perPid.forEach((value, j) => (side.perPid[j]! += value));
        side.balancerCpu += balancerPid === undefined ? 0 : (await cpuSeconds(balancerPid)) - balancerBefore;
        side.samples = side.samples.concat(one.samples);
      }
    }
    return sides;
  };
  const figures = (side: ReturnType<typeof empty>, replicas: number) => {
    const stats = summarize(side.samples);
    return {
      callsPerSecond: side.calls / side.seconds,
      p50: stats.p50,
      p99: stats.p99,
      serveCpuCores: side.cpu / side.seconds,
      callsPerServeCpuSecond: side.calls / side.cpu,
      /** The same above what the replicas use idle (the CPU the calls themselves cost). */
      callsPerCallCpuSecond: side.calls / (side.cpu - idlePerReplica * replicas * side.seconds),
      haproxyCpuCores: side.balancerCpu / side.seconds,
      /** Each replica's share of the side's serve CPU (HAProxy gives each the same number of calls). */
      cpuShares: side.perPid.slice(0, replicas).map((value) => value / side.cpu),
    };
  };
  const before = await measure();
  // Replica 1 has by now served every call of the one-replica sides, the others a third of the
  // three-replica side's: warm them as much (their JIT, their caches) before measuring again.
  const [direct1, alone1, three1] = before.map((side) => side.calls) as [number, number, number];
  const perReplicaRound = Math.max(1, three1 / ROUNDS / servePids.length);
  const extra = Math.min(Math.ceil((direct1 + alone1) / perReplicaRound), 2 * ROUNDS * servePids.length);
  for (let i = 0; i < extra; i++) await round(balanced, servePids);
  const after = await measure();
  await Promise.all([...direct, ...alone, ...balanced].map((client) => client.close()));
  await lone.stop();
  const [one, oneBehind, three] = before.map((side, n) => figures(side, plan[n]!.replicas)) as [
    ReturnType<typeof figures>,
    ReturnType<typeof figures>,
    ReturnType<typeof figures>,
  ];
  const [, oneBehindWarm, threeWarm] = after.map((side, n) => figures(side, plan[n]!.replicas));
  return {
    /** Measured again once every replica has served as many calls as replica 1 (extra warm-up rounds). */
    warmed: {
      extraRounds: extra,
      alone: oneBehindWarm!,
      haproxy: threeWarm!,
      perCoreRatio: threeWarm!.callsPerServeCpuSecond / oneBehindWarm!.callsPerServeCpuSecond,
    },
    direct: one,
    alone: oneBehind,
    haproxy: three,
    scaling: three.callsPerSecond / one.callsPerSecond,
    /** Calls per serve CPU-second, three behind HAProxy over one behind HAProxy (the target: at least 0.8). */
    perCoreRatio: three.callsPerServeCpuSecond / oneBehind.callsPerServeCpuSecond,
    /** The same over one reached directly (the figure earlier runs gave). */
    perCoreRatioDirect: three.callsPerServeCpuSecond / one.callsPerServeCpuSecond,
    /** Each replica's CPU with no calls (cores), and the ratio above it (the calls' own CPU). */
    idleCoresPerReplica: idlePerReplica,
    perCoreRatioAboveIdle: three.callsPerCallCpuSecond / oneBehind.callsPerCallCpuSecond,
  };
}

/** (2) kill -9 of a replica under load: to DOWN in HAProxy, and to the last failed call. */
async function killTrials(cluster: Cluster) {
  const trials: { toDownMs: number; lastFailureMs: number; failed: number; answered: number }[] = [];
  for (let i = 0; i < KILLS; i++) {
    const victim = cluster.replicas[(i + 1) % cluster.replicas.length]!.name;
    const load = await startLoad(cluster.url, { modern: 4, legacy: 0, paceMs: 10 });
    await pause(500);
    const killed = performance.now();
    const killedAtMs = Date.now();
    const stopped = cluster.stop(victim, 'SIGKILL');
    let toDownMs = Number.NaN;
    while (performance.now() - killed < 5000) {
      if ((await cluster.status())[victim] === 'DOWN') {
        toDownMs = performance.now() - killed;
        break;
      }
      await pause(5);
    }
    await stopped;
    await pause(1000);
    await load.stop();
    const failed = load.outcomes.filter((outcome) => outcome.error !== undefined);
    const lastFailure = Math.max(killedAtMs, ...failed.map((outcome) => outcome.ended));
    trials.push({
      toDownMs,
      lastFailureMs: lastFailure - killedAtMs,
      failed: failed.length,
      answered: load.outcomes.length - failed.length,
    });
    await cluster.start(victim);
    await cluster.waitUp();
  }
  return trials;
}

/** (3) The share of 2025-era sessions whose first call finds its session gone, through a balancer at `url`. */
async function sessionsLost(url: string): Promise<number> {
  let lost = 0;
  for (let i = 0; i < SESSIONS; i++) {
    let client: Client | undefined;
    try {
      // The handshake's own `initialized` notice is the session's first request after initialize.
      client = await eraClient(url, 'legacy');
      await client.callTool({ name: REPLICA_TOOL, arguments: { name: 'REPLICA' } });
    } catch (error) {
      if (!sessionGone(error)) throw error;
      lost += 1;
    }
    await client?.close().catch(() => undefined);
  }
  return lost / SESSIONS;
}

/** Another HAProxy before `replicas` (`hash`: hashing the session header); resolves its URL, its pid and a stop. */
async function balancer(replicas: Cluster['replicas'], sessions: 'stick' | 'hash') {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-lb-'));
  const [port, statsPort] = [await freePort(), await freePort()];
  await writeFile(join(dir, 'haproxy.cfg'), haproxyConfig(port, statsPort, replicas, '200ms', sessions));
  const haproxy = spawn(HAPROXY, ['-f', join(dir, 'haproxy.cfg'), '-db'], { stdio: 'ignore' });
  await pause(1500); // its first health checks (rise 1)
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    pid: haproxy.pid!,
    stop: async () => {
      const exited = once(haproxy, 'exit');
      haproxy.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  if (!haproxyAvailable()) {
    console.log(`\n== Replicas behind HAProxy ==\nskipped: no ${HAPROXY}`);
    return;
  }
  // Cluster mode, as a team runs replicas: one real Redis (the run says when it is not installed).
  const missing = redisMissing();
  const redis = missing ? undefined : await startRedis();
  if (missing) console.log(`replicas without Redis (${missing})`);
  const cluster = await startCluster({
    config: {
      ...(redis ? { cluster: { redis: { url: redis.url, keyPrefix: 'bench-replicas:' } } } : {}),
      mcpServers: {
        echo: nodeServer(fixture('echo-secrets.mjs'), [], { env: { REPLICA: '${REPLICA}' }, sandbox: false }),
      },
      proxy: { quarantine: false, drainMs: 2000 },
    },
    readOnly: false,
  });
  try {
    const rounds = await throughputRounds(cluster);
    const kills = await killTrials(cluster);
    const stick = await sessionsLost(cluster.url);
    const hashing = await balancer(cluster.replicas, 'hash');
    const hashed = await sessionsLost(hashing.url).finally(() => hashing.stop());
    const cores = cpus().length;
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    printTable(
      `2026-07-28 tools/call, ${CONCURRENCY} in flight, ${ROUNDS} alternating rounds of ${ROUND_MS} ms (${cores} cores)`,
      ['', 'calls/s', 'p50', 'p99', 'serve CPU (cores)', 'calls per serve CPU-s'],
      [
        ['one replica, direct', rounds.direct, ''],
        ['one behind HAProxy', rounds.alone, ` (+HAProxy ${rounds.alone.haproxyCpuCores.toFixed(2)})`],
        ['three behind HAProxy', rounds.haproxy, ` (+HAProxy ${rounds.haproxy.haproxyCpuCores.toFixed(2)})`],
      ].map(([name, side, extra]) => {
        const s = side as typeof rounds.direct;
        return [
          name as string,
          s.callsPerSecond.toFixed(0),
          ms(s.p50),
          ms(s.p99),
          `${s.serveCpuCores.toFixed(2)}${extra as string}`,
          s.callsPerServeCpuSecond.toFixed(0),
        ];
      }),
    );
    const usable = Math.min(3, cores);
    console.log(
      `three replicas give ${rounds.scaling.toFixed(2)}x one replica's throughput: ` +
        `${((rounds.scaling / usable) * 100).toFixed(0)}% of linear over the ${usable} cores they can use here; ` +
        `projected: ~${rounds.haproxy.callsPerServeCpuSecond.toFixed(0)} calls/s per core given to serve`,
    );
    console.log(
      `calls per serve CPU-second, three replicas over one${redis ? ' (cluster mode, one Redis)' : ''}: ` +
        `${rounds.perCoreRatio.toFixed(2)} behind HAProxy both (target 0.8), ${rounds.perCoreRatioDirect.toFixed(2)} over one reached directly; ` +
        `each replica uses ${rounds.idleCoresPerReplica.toFixed(3)} cores with no call (health checks, timers): ` +
        `above that, ${rounds.perCoreRatioAboveIdle.toFixed(2)}`,
    );
    const shares = (side: { cpuShares: number[] }) => side.cpuShares.map((share) => share.toFixed(2)).join('/');
    console.log(
      `each replica's share of the three's CPU (equal calls): ${shares(rounds.haproxy)}; after ` +
        `${rounds.warmed.extraRounds} more rounds through HAProxy (every replica warmed as much as replica 1): ` +
        `${shares(rounds.warmed.haproxy)}, three over one behind HAProxy ${rounds.warmed.perCoreRatio.toFixed(2)} ` +
        `(${rounds.perCoreRatio.toFixed(2)} before, the same run)`,
    );
    printTable(
      'kill -9 of a replica under load (health checks every 200 ms)',
      ['trial', 'to DOWN in HAProxy', 'last failed call after', 'failed', 'answered'],
      kills.map((trial, i) => [
        String(i + 1),
        ms(trial.toDownMs),
        ms(trial.lastFailureMs),
        String(trial.failed),
        String(trial.answered),
      ]),
    );
    printTable(
      `2025-era sessions (${SESSIONS}): first call finds its session gone`,
      ['balancer', 'sessions lost'],
      [
        ['stick table learnt from the response', `${(stick * 100).toFixed(0)}%`],
        ['hash of the Mcp-Session-Id header', `${(hashed * 100).toFixed(0)}%`],
      ],
    );
    await mkdir(join(ROOT, 'bench/results'), { recursive: true });
    await writeFile(
      RESULTS,
      JSON.stringify(
        {
          cores,
          clusterMode: redis !== undefined,
          rounds,
          kills,
          sessions: { stick, hashed },
          at: new Date().toISOString(),
        },
        null,
        2,
      ),
    );
  } finally {
    await cluster.close();
    await redis?.stop();
  }
}

await main();
