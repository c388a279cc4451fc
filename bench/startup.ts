// Start-up and memory of a big configuration (issue 14), measured on the real `serve` command in one run:
//  - 32 stdio fixture servers of 30 tools each (960 tools), one of them 3 s slow to start:
//    time from spawning `serve` to the first complete tools/list, cold (no cache) against the slow server
//    alone, and warm from the catalog cache (eager and on-demand);
//  - RSS of the serve process ("core") and of its whole process tree, eager against on-demand idle;
//  - the first call to an idle on-demand server against calls to a running one;
//  - the LiveMCPBench catalog (70 real servers' tools) published from the cache: list time and core RSS.
// Each serve gets its own config and state dirs. BENCH_SERVERS / BENCH_SLOW_MS shrink the run.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pidtree from 'pidtree';
import { CatalogCache } from '../electron/core/catalog/index.js';
import { parseConfig } from '../electron/core/platform/index.js';
import { silentLogger } from '../electron/core/api/index.js';
import { printTable, spawnUntilLine, stopChild, summarize, type Spawned } from './lib.js';

const ROOT = resolve(import.meta.dirname, '..');
const FIXTURE = join(ROOT, 'test/fixtures/servers/configurable.mjs');
const LIVEMCPBENCH = resolve(ROOT, '../shared/datasets/livemcpbench/tools.json');
const SERVERS = Number(process.env['BENCH_SERVERS'] ?? 32);
const TOOLS_EACH = 30;
const SLOW_MS = Number(process.env['BENCH_SLOW_MS'] ?? 3000);
const TOKEN = 'bench-token-startup-0123456789';

const loadStart = loadavg()[0]!.toFixed(1);
const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-startup-'));
const running: Spawned[] = [];

/** One fixture server entry; the slow one waits `SLOW_MS` before serving. */
function fixtureServer(index: number, slow: boolean): Record<string, unknown> {
  const tools = Array.from({ length: TOOLS_EACH }, (_, t) => `tool_${t}`).join(',');
  return {
    command: process.execPath,
    args: [FIXTURE],
    env: { FIXTURE_TOOLS: tools, FIXTURE_NAME: `server-${index}`, FIXTURE_START_DELAY_MS: String(slow ? SLOW_MS : 0) },
  };
}

/** Writes a config under `home` and returns its path. */
async function writeConfig(home: string, config: Record<string, unknown>): Promise<string> {
  const path = join(dir, `${home}.json`);
  await writeFile(path, JSON.stringify(config));
  return path;
}

interface Serve {
  proc: Spawned;
  url: string;
  spawnedAt: number;
  /** When it printed its endpoint (listening). */
  listeningAt: number;
}

/** Spawns `serve` with its own config and state dirs (`home`); resolves once it prints its endpoint. */
async function serve(home: string, configPath: string): Promise<Serve> {
  const base = join(dir, home);
  const env = { ...process.env, SWITCHBOARD_TOKEN: TOKEN, XDG_CONFIG_HOME: base, XDG_STATE_HOME: join(base, 'state') };
  const spawnedAt = performance.now();
  const { proc, match } = await spawnUntilLine(
    home,
    process.execPath,
    ['bin/mcp-switchboard.js', 'serve', '--config', configPath, '--port', '0', '--quiet'],
    { env, cwd: ROOT, pattern: /MCP endpoint: (\S+)/, timeoutMs: 30_000 },
  );
  running.push(proc);
  return { proc, url: match[1]!, spawnedAt, listeningAt: performance.now() };
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'bench-startup', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
  );
  return client;
}

/** Lists until `expected` tools are there; ms from spawning serve and from its listening. */
async function timeToCompleteList(
  instance: Serve,
  client: Client,
  expected: number,
): Promise<{ fromSpawn: number; fromListen: number; lists: number }> {
  for (let lists = 1; ; lists++) {
    const { tools } = await client.listTools(undefined, { timeout: 60_000 });
    const now = performance.now();
    if (tools.length >= expected)
      return { fromSpawn: now - instance.spawnedAt, fromListen: now - instance.listeningAt, lists };
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resident set size of one process, MB (Linux /proc). */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** CPU time (user + system) a process has used so far, s (Linux /proc; USER_HZ is 100). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
}

/** RSS of serve alone and of its whole tree, MB; CPU the whole tree and its children alone have used, s. */
async function memory(
  instance: Serve,
): Promise<{ core: number; tree: number; children: number; cpu: number; childrenCpu: number }> {
  const pid = instance.proc.child.pid!;
  const descendants = await pidtree(pid).catch(() => [] as number[]);
  const sizes = await Promise.all(descendants.map(rssMb));
  const core = await rssMb(pid);
  const children = sizes.filter((size) => size > 0).length;
  const childrenCpu = (await Promise.all(descendants.map(cpuSeconds))).reduce((a, b) => a + b, 0);
  const cpu = (await cpuSeconds(pid)) + childrenCpu;
  return { core, tree: core + sizes.reduce((a, b) => a + b, 0), children, cpu, childrenCpu };
}

async function stop(instance: Serve): Promise<void> {
  await stopChild(instance.proc.child);
  running.splice(running.indexOf(instance.proc), 1);
}

/** Times one scenario: spawn serve, wait for the complete list, measure memory, stop. */
async function scenario(
  home: string,
  configPath: string,
  expected: number,
  extra?: (instance: Serve, client: Client) => Promise<void>,
): Promise<{
  listMs: number;
  fromListen: number;
  lists: number;
  core: number;
  tree: number;
  children: number;
  cpu: number;
  childrenCpu: number;
  /** From the stop signal until serve has exited, every server stopped and reaped. */
  quitMs: number;
}> {
  const instance = await serve(home, configPath);
  const client = await connect(instance.url);
  const { fromSpawn: listMs, fromListen, lists } = await timeToCompleteList(instance, client, expected);
  // Let the remaining starts settle before memory is read (eager: every child up).
  await new Promise((r) => setTimeout(r, 1500));
  const mem = await memory(instance);
  await extra?.(instance, client);
  await client.close();
  const quitting = performance.now();
  await stop(instance);
  return { listMs, fromListen, lists, ...mem, quitMs: performance.now() - quitting };
}

try {
  const big = Object.fromEntries(Array.from({ length: SERVERS }, (_, i) => [`s${i}`, fixtureServer(i, i === 0)]));
  const proxy = { maxBackends: Math.max(32, SERVERS), maxCatalogItems: 5000 };
  const total = SERVERS * TOOLS_EACH;
  const slowAlone = await scenario(
    'slow-alone',
    await writeConfig('slow-alone', { mcpServers: { s0: big['s0'] } }),
    TOOLS_EACH,
  );
  const eagerPath = await writeConfig('big', { proxy, mcpServers: big });
  const cold = await scenario('big', eagerPath, total);
  const warm = await scenario('big', eagerPath, total);
  // The same launch lines on demand: the cache of the runs above serves them (same state dir).
  const lazyPath = await writeConfig('big-lazy', { proxy: { ...proxy, defaultStart: 'on-demand' }, mcpServers: big });
  let firstCall = 0;
  let warmCall = { p50: 0, p99: 0 };
  const idle = await scenario('big', lazyPath, total, async (_instance, client) => {
    let t = performance.now();
    await client.callTool({ name: `s${SERVERS - 1}__tool_1`, arguments: {} });
    firstCall = performance.now() - t;
    const samples: number[] = [];
    for (let i = 0; i < 50; i++) {
      t = performance.now();
      await client.callTool({ name: `s${SERVERS - 1}__tool_1`, arguments: {} });
      samples.push(performance.now() - t);
    }
    warmCall = summarize(samples);
  });

  // LiveMCPBench: 70 real servers' catalogs, cached as an earlier run would have left them, all on demand.
  const bench = JSON.parse(await readFile(LIVEMCPBENCH, 'utf8')) as {
    servers: Record<string, { tools: { name: string; description?: string; inputSchema: Record<string, unknown> }[] }>;
  };
  const liveServers: Record<string, unknown> = {};
  for (const [name, server] of Object.entries(bench.servers)) {
    const id = `m${Object.keys(liveServers).length}_${name.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 40);
    const file = join(dir, `live-${id}.json`);
    await writeFile(file, JSON.stringify(server.tools));
    liveServers[id] = {
      command: process.execPath,
      args: [FIXTURE],
      env: { FIXTURE_TOOLS_FILE: file },
      start: 'on-demand',
    };
  }
  const liveConfig = { proxy: { maxBackends: 100, maxCatalogItems: 5000 }, mcpServers: liveServers };
  const parsed = parseConfig(liveConfig);
  if (!parsed.config) throw new Error(JSON.stringify(parsed.problems));
  const cache = new CatalogCache(join(dir, 'live', 'state', 'mcp-switchboard', 'catalogs'), { logger: silentLogger });
  const liveTools = Object.values(bench.servers).reduce((n, s) => n + s.tools.length, 0);
  for (const [index, backend] of parsed.config.backends.entries()) {
    const tools = Object.values(bench.servers)[index]!.tools;
    await cache.save(backend, { tools: tools as never, prompts: [], resources: [], resourceTemplates: [] });
  }
  // The first run pins 527 new tools (one pin-file write per server); a user's next start finds them pinned.
  const livePath = await writeConfig('live', liveConfig);
  await scenario('live', livePath, liveTools);
  const live = await scenario('live', livePath, liveTools);

  const f = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  const mb = (x: number): string => `${x.toFixed(0)} MB`;
  // How many lists the client needed: 1 when the first answer was complete.
  const ms = (x: number, lists: number): string => `${x.toFixed(0)} ms${lists > 1 ? ` (${lists} lists)` : ''}`;
  printTable(
    `serve start to first complete tools/list (${SERVERS} stdio servers x ${TOOLS_EACH} tools, one ${SLOW_MS} ms slow)`,
    ['run', 'from spawn', 'vs slowest alone', 'from listening', 'core RSS', 'tree RSS', 'children'],
    [
      [
        'slowest server alone (cold)',
        f(slowAlone.listMs),
        '1.00x',
        ms(slowAlone.fromListen, slowAlone.lists),
        mb(slowAlone.core),
        mb(slowAlone.tree),
        String(slowAlone.children),
      ],
      [
        'all, cold (no cache), eager',
        f(cold.listMs),
        `${(cold.listMs / slowAlone.listMs).toFixed(2)}x`,
        ms(cold.fromListen, cold.lists),
        mb(cold.core),
        mb(cold.tree),
        String(cold.children),
      ],
      [
        'all, warm (cache), eager',
        `${warm.listMs.toFixed(0)} ms`,
        `${(warm.listMs / slowAlone.listMs).toFixed(2)}x`,
        ms(warm.fromListen, warm.lists),
        mb(warm.core),
        mb(warm.tree),
        String(warm.children),
      ],
      [
        'all, warm (cache), on-demand idle',
        `${idle.listMs.toFixed(0)} ms`,
        `${(idle.listMs / slowAlone.listMs).toFixed(2)}x`,
        ms(idle.fromListen, idle.lists),
        mb(idle.core),
        mb(idle.tree),
        String(idle.children),
      ],
      [
        `LiveMCPBench ${Object.keys(liveServers).length} servers / ${liveTools} tools, cached, idle`,
        `${live.listMs.toFixed(0)} ms`,
        '',
        ms(live.fromListen, live.lists),
        mb(live.core),
        mb(live.tree),
        String(live.children),
      ],
    ],
  );
  printTable(
    'tools/call to an on-demand server',
    ['call', 'time'],
    [
      ['first call (idle: spawn, handshake, list, call)', `${firstCall.toFixed(0)} ms`],
      ['warm calls p50 / p99', `${warmCall.p50.toFixed(2)} / ${warmCall.p99.toFixed(2)} ms`],
      ['first / warm p50', `${(firstCall / warmCall.p50).toFixed(0)}x`],
    ],
  );
  // The cold run cannot end before its tree's CPU time spread over every core (its own start is serial, too).
  const cores = availableParallelism();
  const floor = cold.cpu / cores;
  console.log(
    `\ncold run: the tree used ${cold.cpu.toFixed(2)} s of CPU (serve ${(cold.cpu - cold.childrenCpu).toFixed(2)} s + ` +
      `${cold.children} children ${cold.childrenCpu.toFixed(2)} s); on ${cores} cores no schedule ends before ` +
      `${f(floor * 1000)} = ${(floor / (slowAlone.listMs / 1000)).toFixed(2)}x the slowest alone (load average ` +
      `${loadStart} at start, ${loadavg()[0]!.toFixed(1)} at the end)`,
  );
  // A lower bound that owes nothing to serve or to contention: each child's own start, as one child used it alone.
  const oneChild = slowAlone.childrenCpu;
  const childFloor = (SERVERS * oneChild) / cores;
  console.log(
    `cold floor from the servers alone: ${SERVERS} x ${oneChild.toFixed(2)} s (one server's CPU, started alone) / ` +
      `${cores} cores = ${f(childFloor * 1000)} = ${(childFloor / (slowAlone.listMs / 1000)).toFixed(2)}x the slowest alone`,
  );
  console.log(
    `quit (SIGTERM until serve has exited, every server reaped): ${SERVERS} servers up ${warm.quitMs.toFixed(0)} ms, ` +
      `all idle ${idle.quitMs.toFixed(0)} ms, one server ${slowAlone.quitMs.toFixed(0)} ms`,
  );
  console.log(
    `targets: cold <= 1.1x slowest alone: ${cold.listMs <= 1.1 * slowAlone.listMs ? 'met' : 'NOT met'}; ` +
      `warm < 300 ms from listening: ${warm.fromListen < 300 && idle.fromListen < 300 ? 'met' : 'NOT met'}; ` +
      `core RSS < 150 MB: ${Math.max(cold.core, idle.core) < 150 ? 'met' : 'NOT met'}; ` +
      `idle tree is the core alone: ${idle.children === 0 ? 'met' : 'NOT met'}`,
  );
} finally {
  await Promise.allSettled(running.map((proc) => stopChild(proc.child)));
  await rm(dir, { recursive: true, force: true });
}
