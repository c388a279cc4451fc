// Before/after of the proxy hop in one run (issue 28; not part of `npm run bench`): the HTTP
// fixture called directly, through this checkout's `serve`, through another checkout's `serve`
// (HOP_SERVE_ROOT, e.g. main's) and through a raw byte forwarder (bench/rawForwarder.ts: the
// floor of a hop in Node), with 2025- and 2026-era clients. Each round runs every side at every
// concurrency, the sides' order rotating; it prints the median throughput, its ratio to direct,
// and each proxy's own CPU per call from /proc (less noisy than throughput on a shared machine).
//   HOP_SERVE_ROOT=/work/main node --import tsx bench/hopCompare.ts [rounds=5] [calls=200]
// HOP_CONCURRENCY=32 and HOP_ERAS=2025 narrow the runs (more calls per run: steadier CPU figures).
// HOP_FULL_PATH=1 adds this checkout's `serve` with the fast path of a plain call off (`full`,
// SWITCHBOARD_FULL_PATH=1): the fast path's before/after in one run, on the same build.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { CONCURRENCY, connectHttp, realClient } from './benchClients.js';
import type { Era } from './benchClients.js';
import { printTable, spawnUntilLine, stopChild, throughput, waitFor200 } from './lib.js';
import type { Spawned } from './lib.js';
import { cpuSince, cpuTime } from './processCpu.js';
import { median } from './proxyReport.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const rounds = Number(process.argv[2] ?? 5);
const calls = Number(process.argv[3] ?? 200);
const TOKEN = 'hop-compare-token-0123456789abcdef';
const concurrencies = process.env.HOP_CONCURRENCY?.split(',').map(Number) ?? CONCURRENCY;
const eras = (process.env.HOP_ERAS?.split(',') ?? ['2025', '2026']) as Era[];

/** One way to reach the fixture's echo tool; `proc` is the proxy in between, if any. */
interface Side {
  name: string;
  url: string;
  tool: string;
  proc?: Spawned;
}

const children: Spawned[] = [];
async function start(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  pattern: RegExp,
): Promise<Spawned & { url: string }> {
  const { proc, match } = await spawnUntilLine(name, process.execPath, args, {
    env,
    cwd: ROOT,
    pattern,
    timeoutMs: 30_000,
  });
  children.push(proc);
  return { ...proc, url: match[1]! };
}

async function startServe(
  name: string,
  root: string,
  dir: string,
  backendUrl: string,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Side> {
  const home = join(dir, name);
  const config = join(dir, `${name}.json`);
  await writeFile(config, JSON.stringify({ mcpServers: { bench: { url: backendUrl } } }));
  const env = {
    ...process.env,
    SWITCHBOARD_TOKEN: TOKEN,
    XDG_CONFIG_HOME: home,
    XDG_STATE_HOME: join(home, 'state'),
    ...extraEnv,
  };
  const args = [join(root, 'bin/mcp-switchboard.js'), 'serve', '--config', config, '--port', '0', '--quiet'];
  const proc = await start(name, args, env, /MCP endpoint: (\S+)/);
  await waitFor200(new URL('/readyz', proc.url).href, 30_000);
  return { name, url: proc.url, tool: 'bench__echo', proc };
}

/** Median throughput and ratio to direct, and CPU µs per call, per side and concurrency. */
interface Figures {
  perSecond: Map<string, number[]>;
  cpu: Map<string, number[]>;
  /** Per side, over all its runs: the proxy's and the backend's CPU (µs). The backend does the same
   * kind of work per call (an SDK server per request) and meets the same contention, so the ratio
   * holds better than µs on a loaded machine. */
  pooled: Map<string, { proxy: number; backend: number }>;
}

async function measureEra(era: Era, sides: Side[], backendPid: number): Promise<Figures> {
  const clients = new Map<string, Client>();
  for (const side of sides) {
    const client = await connectHttp(realClient(era), side.url, side.proc ? TOKEN : undefined);
    const run = (): Promise<unknown> => client.callTool({ name: side.tool, arguments: { text: 'ping' } });
    await throughput(100, 8, run);
    clients.set(side.name, client);
  }
  const figures: Figures = { perSecond: new Map(), cpu: new Map(), pooled: new Map() };
  const push = (map: Map<string, number[]>, key: string, value: number): void => {
    map.set(key, [...(map.get(key) ?? []), value]);
  };
  for (let round = 0; round < rounds; round++) {
    for (const c of concurrencies) {
      // The order rotates each round, so no side always runs on a warmer (or busier) machine.
      const order = sides.map((_, i) => sides[(i + round) % sides.length]!);
      for (const side of order) {
        const client = clients.get(side.name)!;
        const pid = side.proc?.child.pid;
        const was = pid === undefined ? undefined : cpuTime(pid);
        const backendWas = cpuTime(backendPid);
        const rate = await throughput(calls, c, () =>
          client.callTool({ name: side.tool, arguments: { text: 'ping' } }),
        );
        push(figures.perSecond, `${side.name} ${c}`, rate);
        if (pid !== undefined && was) {
          const used = cpuSince(pid, was);
          push(figures.cpu, `${side.name} ${c}`, used / calls);
          const pooled = figures.pooled.get(side.name) ?? { proxy: 0, backend: 0 };
          figures.pooled.set(side.name, {
            proxy: pooled.proxy + used,
            backend: pooled.backend + cpuSince(backendPid, backendWas),
          });
        }
      }
    }
  }
  for (const client of clients.values()) await client.close();
  return figures;
}

function report(era: Era, sides: Side[], figures: Figures): void {
  const rows: string[][] = [];
  for (const c of concurrencies) {
    const direct = median(figures.perSecond.get(`direct ${c}`) ?? []);
    for (const side of sides) {
      const rate = median(figures.perSecond.get(`${side.name} ${c}`) ?? []);
      const cpu = figures.cpu.get(`${side.name} ${c}`);
      rows.push([
        side.name,
        String(c),
        rate.toFixed(0),
        side.proc ? `${(rate / direct).toFixed(2)}x` : '',
        cpu ? median(cpu).toFixed(0) : '',
      ]);
    }
  }
  printTable(
    `${era}-era tools/call echo: median of ${rounds} rotating rounds of ${calls} calls`,
    ['side', 'concurrency', 'calls/s', 'vs direct', 'proxy CPU µs/call'],
    rows,
  );
  const total = rounds * concurrencies.length * calls;
  printTable(
    `${era}-era CPU over all ${total} calls of each side`,
    ['side', 'proxy µs/call', 'backend µs/call', 'proxy/backend'],
    [...figures.pooled].map(([name, { proxy, backend }]) => [
      name,
      (proxy / total).toFixed(0),
      (backend / total).toFixed(0),
      (proxy / backend).toFixed(2),
    ]),
  );
}

const dir = await mkdtemp(join(tmpdir(), 'switchboard-hopcmp-'));
try {
  const loadAtStart = loadavg();
  const fixture = await start(
    'fixture',
    ['test/fixtures/servers/http-server.mjs'],
    { ...process.env, PORT: '0' },
    /LISTENING (\S+)/,
  );
  const sides: Side[] = [{ name: 'direct', url: fixture.url, tool: 'echo' }];
  sides.push(await startServe('this', ROOT, dir, fixture.url));
  const before = process.env.HOP_SERVE_ROOT;
  if (before) sides.push(await startServe('before', before, dir, fixture.url));
  if (process.env.HOP_FULL_PATH === '1') {
    sides.push(await startServe('full', ROOT, dir, fixture.url, { SWITCHBOARD_FULL_PATH: '1' }));
  }
  const raw = await start(
    'raw',
    ['--import', 'tsx', 'bench/rawForwarder.ts', fixture.url],
    process.env,
    /LISTENING (\S+)/,
  );
  sides.push({ name: 'raw', url: raw.url, tool: 'echo', proc: raw });
  for (const era of eras) report(era, sides, await measureEra(era, sides, fixture.child.pid!));
  const text = (l: number[]): string => l.map((x) => x.toFixed(1)).join(' ');
  console.log(`\nload (1/5/15 min) at start ${text(loadAtStart)}, at end ${text(loadavg())}`);
} finally {
  for (const proc of children.reverse()) await stopChild(proc.child);
  await rm(dir, { recursive: true, force: true });
}
