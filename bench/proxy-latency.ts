// Proxy overhead benchmark (`npm run bench`): the same small tool called directly and through
// mcp-switchboard, side by side in one run, over HTTP (2025- and 2026-era clients) and stdio.
// Clients declare what Claude Code and Cursor declare (benchClients.ts). Direct and proxied
// alternate: latency in blocks of BLOCK calls, throughput in ROUNDS rounds (order swapped each
// round). Prints tables of proxied/direct ratios, the targets of issue 14 ("the hop cost,
// settled") and writes bench/results/latest.json.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { CONCURRENCY, connectHttp, realClient } from './benchClients.js';
import type { Era } from './benchClients.js';
import { countLine, interleaved, spawnUntilLine, stopChild, throughput, timeSequential, waitFor200 } from './lib.js';
import type { Spawned } from './lib.js';
import { median, printResults, targets } from './proxyReport.js';
import { cpuSince, cpuTime } from './processCpu.js';
import type { PairResult } from './proxyReport.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HTTP_FIXTURE = join(ROOT, 'test/fixtures/servers/http-server.mjs');
const STDIO_FIXTURE = join(ROOT, 'test/fixtures/servers/slow.mjs');
const RESULTS = join(ROOT, 'bench/results/latest.json');
const WARMUP = 50;
const SEQ_CALLS = 500;
const TP_CALLS = 200;
/** Throughput runs per concurrency and side, direct and proxied alternating. */
const ROUNDS = 4;
const LIST_CALLS = 200;
/** Sequential latency runs alternate direct and proxied in blocks of this size, so drift hits both alike. */
const BLOCK = 25;
const CALL_TIMEOUT_MS = 15_000;
const WATCHDOG_MS = 6 * 60_000;

/** One client and the name under which it sees the echo tool. */
interface Endpoint {
  client: Client;
  tool: string;
}

/** Things to close at the end, last registered first. */
const cleanups: (() => Promise<void>)[] = [];
const children: Spawned[] = [];
/** Process warnings seen in this (client) process, by message with numbers masked, with counts. */
const clientWarnings = new Map<string, number>();

function newClient(era: Era): Client {
  const client = realClient(era);
  cleanups.push(() => client.close());
  return client;
}

async function connectStdio(script: string): Promise<Client> {
  const client = newClient('2025');
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [script], stderr: 'inherit' }));
  return client;
}

/** A child listening at `url`; `pid` for its CPU time. */
interface Listening {
  url: string;
  pid: number;
}

/** Starts a child that prints its URL on stdout once listening; it is stopped at cleanup. */
async function startChild(name: string, args: string[], env: NodeJS.ProcessEnv, pattern: RegExp): Promise<Listening> {
  const { proc, match } = await spawnUntilLine(name, process.execPath, args, {
    env,
    cwd: ROOT,
    pattern,
    timeoutMs: 20_000,
  });
  children.push(proc);
  cleanups.push(() => stopChild(proc.child));
  const url = match[1];
  if (url === undefined || proc.child.pid === undefined) throw new Error(`${name}: no URL in its startup line`);
  return { url, pid: proc.child.pid };
}

/** Starts a proxy instance serving `backend` as id `bench`; resolves with its /mcp URL once ready. */
async function startProxy(name: string, dir: string, token: string, backend: object): Promise<Listening> {
  const config = join(dir, `${name}.json`);
  await writeFile(config, JSON.stringify({ mcpServers: { bench: backend } }));
  // Each proxy gets its own config and state dirs: both name their backend "bench", and
  // shared tool pins would (rightly) withhold the other's different `echo`.
  const home = join(dir, name);
  const env = { ...process.env, SWITCHBOARD_TOKEN: token, XDG_CONFIG_HOME: home, XDG_STATE_HOME: join(home, 'state') };
  const args = ['bin/mcp-switchboard.js', 'serve', '--config', config, '--port', '0'];
  const proxy = await startChild(name, args, env, /MCP endpoint: (\S+)/);
  await waitFor200(new URL('/readyz', proxy.url).href, 20_000);
  return proxy;
}

function echo(endpoint: Endpoint): () => Promise<unknown> {
  return () =>
    endpoint.client.callTool({ name: endpoint.tool, arguments: { text: 'ping' } }, { timeout: CALL_TIMEOUT_MS });
}

function listTools(endpoint: Endpoint): () => Promise<unknown> {
  return () => endpoint.client.listTools(undefined, { cacheMode: 'bypass', timeout: CALL_TIMEOUT_MS });
}

/** Warm-up calls; the first checks that the tool really echoes (not an error result). */
async function warmUp(endpoint: Endpoint): Promise<void> {
  const result = await endpoint.client.callTool({ name: endpoint.tool, arguments: { text: 'warm' } });
  const first = result.content?.[0];
  if (result.isError || first?.type !== 'text' || first.text !== 'warm') {
    throw new Error(`${endpoint.tool} did not echo: ${JSON.stringify(result)}`);
  }
  await timeSequential(WARMUP, echo(endpoint));
  await timeSequential(5, listTools(endpoint));
}

/** The processes whose CPU per call is counted: the proxy (proxied calls) and, when known, the backend (direct calls). */
interface Pids {
  proxy: number;
  backend?: number;
}

/** Runs every measurement on both endpoints, one endpoint at a time (direct and proxied alternate). */
async function measurePair(path: string, direct: Endpoint, proxied: Endpoint, pids: Pids): Promise<PairResult> {
  await warmUp(direct);
  await warmUp(proxied);
  const [dCall, pCall] = await interleaved(SEQ_CALLS, BLOCK, echo(direct), echo(proxied));
  const dTp: Record<string, number> = {};
  const pTp: Record<string, number> = {};
  // CPU time of the proxy over its throughput runs, and of the backend over direct ones (µs, calls).
  const cpu = { proxy: 0, backend: 0, calls: 0 };
  const counted = async (
    pid: number | undefined,
    key: 'proxy' | 'backend',
    run: () => Promise<number>,
  ): Promise<number> => {
    const was = pid === undefined ? undefined : cpuTime(pid);
    const rate = await run();
    if (pid !== undefined && was) cpu[key] += cpuSince(pid, was);
    return rate;
  };
  const runDirect = (c: number): Promise<number> =>
    counted(pids.backend, 'backend', () => throughput(TP_CALLS, c, echo(direct)));
  for (const c of CONCURRENCY) {
    const d: number[] = [];
    const p: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Who goes first swaps each round, so neither side always runs on a warmer machine.
      if (round % 2 === 0) d.push(await runDirect(c));
      p.push(await counted(pids.proxy, 'proxy', () => throughput(TP_CALLS, c, echo(proxied))));
      if (round % 2 === 1) d.push(await runDirect(c));
      cpu.calls += TP_CALLS;
    }
    dTp[c] = median(d);
    pTp[c] = median(p);
  }
  const [dList, pList] = await interleaved(LIST_CALLS, BLOCK, listTools(direct), listTools(proxied));
  const tpRatios = Object.fromEntries(CONCURRENCY.map((c) => [c, (pTp[c] ?? NaN) / (dTp[c] ?? NaN)]));
  return {
    path,
    direct: { call: dCall, callsPerSecond: dTp, list: dList },
    proxied: { call: pCall, callsPerSecond: pTp, list: pList },
    cpuPerCall: {
      proxyUs: cpu.proxy / cpu.calls,
      ...(pids.backend !== undefined ? { backendUs: cpu.backend / cpu.calls } : {}),
    },
    ratios: {
      callP50: pCall.p50 / dCall.p50,
      callP99: pCall.p99 / dCall.p99,
      listP50: pList.p50 / dList.p50,
      throughput: tpRatios,
    },
  };
}

/** Lines on the children's stderr that look like trouble, plus this process's warnings; deduplicated. */
function troubleSeen(): string[] {
  const lines = children.flatMap((c) => c.stderr.map((l) => `${c.name}: ${l}`));
  const counts = new Map(clientWarnings);
  for (const line of lines.filter((l) => /warn|error|fail|exceeded/i.test(l))) countLine(counts, line);
  return [...counts].map(([line, n]) => (n > 1 ? `${line} (x${n})` : line));
}

async function run(): Promise<void> {
  // Wall-time ratios need a quiet machine: say how loaded it was, at the start and the end.
  const loadAtStart = loadavg();
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const token = randomBytes(24).toString('hex');
  const fixture = await startChild('http-fixture', [HTTP_FIXTURE], { ...process.env, PORT: '0' }, /LISTENING (\S+)/);
  const httpProxy = await startProxy('proxy-http', dir, token, { url: fixture.url });
  const stdioProxy = await startProxy('proxy-stdio', dir, token, { command: process.execPath, args: [STDIO_FIXTURE] });
  const pairs: PairResult[] = [];
  for (const era of ['2025', '2026'] as const) {
    const direct = { client: await connectHttp(newClient(era), fixture.url), tool: 'echo' };
    const proxied = { client: await connectHttp(newClient(era), httpProxy.url, token), tool: 'bench__echo' };
    pairs.push(await measurePair(`http ${era}-era`, direct, proxied, { proxy: httpProxy.pid, backend: fixture.pid }));
  }
  const stdioDirect = { client: await connectStdio(STDIO_FIXTURE), tool: 'echo' };
  const stdioProxied = { client: await connectHttp(newClient('2025'), stdioProxy.url, token), tool: 'bench__echo' };
  pairs.push(await measurePair('stdio (proxy: http 2025-era)', stdioDirect, stdioProxied, { proxy: stdioProxy.pid }));

  const load = { start: loadAtStart, end: loadavg() };
  const loadText = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' ');
  console.log(
    `\nmachine load (1/5/15 min) at start ${loadText(load.start)}, at end ${loadText(load.end)}, ${availableParallelism()} cores`,
  );
  printResults(pairs, { seqCalls: SEQ_CALLS, tpCalls: TP_CALLS, rounds: ROUNDS, listCalls: LIST_CALLS });
  const verdicts = targets(pairs);
  console.log('\n== targets ==');
  for (const v of verdicts) console.log(`${v.met ? 'MET    ' : 'NOT MET'}  ${v.target} (${v.detail})`);
  const trouble = troubleSeen();
  if (trouble.length > 0) console.log('\n== warnings and errors seen ==');
  for (const line of trouble.slice(0, 20)) console.log(line);

  await mkdir(join(ROOT, 'bench/results'), { recursive: true });
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    platform: process.platform,
    cpus: availableParallelism(),
    load,
  };
  const params = {
    warmup: WARMUP,
    block: BLOCK,
    seqCalls: SEQ_CALLS,
    throughputCalls: TP_CALLS,
    rounds: ROUNDS,
    concurrency: CONCURRENCY,
    listCalls: LIST_CALLS,
  };
  await writeFile(
    RESULTS,
    `${JSON.stringify({ ...meta, params, pairs, targets: verdicts, warnings: trouble }, null, 2)}\n`,
  );
  console.log(`\nresults written to ${RESULTS}`);
}

/** Closes clients, stops children and removes temp dirs, in reverse order; never throws. */
async function cleanup(): Promise<void> {
  for (const step of cleanups.splice(0).reverse()) {
    await step().catch((error: unknown) => console.error(`cleanup: ${(error as Error).message}`));
  }
}

async function main(): Promise<void> {
  // Collected and printed once, deduplicated, instead of Node's line per occurrence.
  process.removeAllListeners('warning');
  process.on('warning', (w) => countLine(clientWarnings, `bench: ${w.name}: ${w.message}`));
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    console.error('interrupted: cleaning up');
    void cleanup().finally(() => process.exit(130));
  });
  let watchdog: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    watchdog = setTimeout(() => reject(new Error(`benchmark took longer than ${WATCHDOG_MS / 1000} s`)), WATCHDOG_MS);
  });
  try {
    await Promise.race([run(), timeout]);
  } catch (error) {
    process.exitCode = 1;
    if (interrupted) return; // the in-flight call failed because cleanup closed its client
    console.error(`bench failed: ${(error as Error).stack ?? String(error)}`);
    for (const c of children) for (const l of c.stderr.slice(-10)) console.error(`${c.name}: ${l}`);
  } finally {
    clearTimeout(watchdog);
    await cleanup();
  }
}

await main();
