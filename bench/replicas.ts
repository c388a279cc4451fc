// Replicas behind a load balancer (issue 28), saved to bench/results/replicas.json:
// (1) throughput and p50/p99 of 2026-07-28 tools/call, one replica reached directly against three
//     behind a real HAProxy, the same client load (CONCURRENCY calls in flight), alternating rounds,
//     with the CPU each side's processes used: calls per serve CPU-second is what one core gives,
//     and the scaling over the direct replica says how much of this machine's cores three use;
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
  const cpu = after.reduce((sum, value, i) => sum + value - (before[i] ?? 0), 0);
  return { calls: samples.length, seconds, cpu, samples };
}

/** (1) Direct to r1 against all three through HAProxy, alternating rounds. */
async function throughputRounds(cluster: Cluster) {
  const replicaUrl = `http://127.0.0.1:${cluster.replicas[0]!.port}/mcp`;
  const direct = await Promise.all(Array.from({ length: 4 }, () => eraClient(replicaUrl, 'modern')));
  const balanced = await Promise.all(Array.from({ length: 4 }, () => eraClient(cluster.url, 'modern')));
  const servePids = cluster.replicas.map((replica) => replica.child!.pid!);
  const sides = {
    direct: { calls: 0, seconds: 0, cpu: 0, samples: [] as number[] },
    haproxy: { calls: 0, seconds: 0, cpu: 0, haproxyCpu: 0, samples: [] as number[] },
  };
  await round(direct, servePids.slice(0, 1)); // warm-up: JIT, connections
  await round(balanced, servePids);
  for (let i = 0; i < ROUNDS; i++) {
    const one = await round(direct, servePids.slice(0, 1));
    Object.assign(sides.direct, {
      calls: sides.direct.calls + one.calls,
      seconds: sides.direct.seconds + one.seconds,
      cpu: sides.direct.cpu + one.cpu,
      samples: sides.direct.samples.concat(one.samples),
    });
    const haproxyBefore = await cpuSeconds(cluster.haproxyPid);
    const three = await round(balanced, servePids);
    Object.assign(sides.haproxy, {
      calls: sides.haproxy.calls + three.calls,
      seconds: sides.haproxy.seconds + three.seconds,
      cpu: sides.haproxy.cpu + three.cpu,
      haproxyCpu: sides.haproxy.haproxyCpu + (await cpuSeconds(cluster.haproxyPid)) - haproxyBefore,
      samples: sides.haproxy.samples.concat(three.samples),
    });
  }
  await Promise.all([...direct, ...balanced].map((client) => client.close()));
  const figures = (side: { calls: number; seconds: number; cpu: number; samples: number[] }) => {
    const stats = summarize(side.samples);
    return {
      callsPerSecond: side.calls / side.seconds,
      p50: stats.p50,
      p99: stats.p99,
      serveCpuCores: side.cpu / side.seconds,
      callsPerServeCpuSecond: side.calls / side.cpu,
    };
  };
  const one = figures(sides.direct);
  const three = { ...figures(sides.haproxy), haproxyCpuCores: sides.haproxy.haproxyCpu / sides.haproxy.seconds };
  return { direct: one, haproxy: three, scaling: three.callsPerSecond / one.callsPerSecond };
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

/** A second HAProxy before the same replicas that hashes the session header; resolves its URL and a stop. */
async function hashingBalancer(cluster: Cluster) {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-hash-lb-'));
  const [port, statsPort] = [await freePort(), await freePort()];
  await writeFile(join(dir, 'haproxy.cfg'), haproxyConfig(port, statsPort, cluster.replicas, '200ms', 'hash'));
  const haproxy = spawn(HAPROXY, ['-f', join(dir, 'haproxy.cfg'), '-db'], { stdio: 'ignore' });
  await pause(1500); // its first health checks (rise 1)
  return {
    url: `http://127.0.0.1:${port}/mcp`,
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
  const cluster = await startCluster({
    config: {
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
    const hashing = await hashingBalancer(cluster);
    const hashed = await sessionsLost(hashing.url).finally(() => hashing.stop());
    const cores = cpus().length;
    const ms = (value: number) => `${value.toFixed(1)} ms`;
    printTable(
      `2026-07-28 tools/call, ${CONCURRENCY} in flight, ${ROUNDS} alternating rounds of ${ROUND_MS} ms (${cores} cores)`,
      ['', 'calls/s', 'p50', 'p99', 'serve CPU (cores)', 'calls per serve CPU-s'],
      [
        ['one replica, direct', rounds.direct, ''],
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
      JSON.stringify({ cores, rounds, kills, sessions: { stick, hashed }, at: new Date().toISOString() }, null, 2),
    );
  } finally {
    await cluster.close();
  }
}

await main();
