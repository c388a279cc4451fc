// CI's guard against a slower plain call (issue 39): this checkout's `serve` and the build of a
// pinned base commit (.ci/perf-base, moved forward deliberately) side by side in one run, the same
// backends behind both (the HTTP fixture and a stdio one), called by 2025-era and 2026-07-28 clients.
// Rounds interleave the two sides (the order rotating), so the machine's load hits both alike; per
// path it compares the p50 of sequential calls and the calls/s with one in flight, and fails only
// on a clear regression: 15% or worse, and again when that path is measured a second time, so noise
// on a shared 2-core machine does not turn CI red. The base is built once into the temp directory
// (`git archive` of the commit, node_modules linked, only the CLI bundle serve runs: a few seconds).
//   node --import tsx bench/abGuard.ts [--base <commit>] [--base-root <checkout>] [--rounds 4] [--calls 50]
//     [--slow-change-ms N]   (the guard's own test: the change's serve answers N ms later, it must fail)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readlink, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Client } from '@modelcontextprotocol/client';
import { connectHttp, realClient, type Era } from './benchClients.js';
import { percentile, printTable, spawnUntilLine, stopChild, waitFor200, type Spawned } from './lib.js';
import { median } from './proxyReport.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'ab-guard-token-0123456789abcdef0123';
/** A path regresses when it is this much slower than the base (p50 up, or calls/s down by as much). */
const REGRESSION = 1.15;
const CALL_TIMEOUT_MS = 15_000;
const WATCHDOG_MS = 10 * 60_000;

const { values: options } = parseArgs({
  options: {
    base: { type: 'string' },
    'base-root': { type: 'string' },
    rounds: { type: 'string', default: '4' },
    calls: { type: 'string', default: '30' },
    'slow-change-ms': { type: 'string', default: '0' },
  },
});
const rounds = positive('rounds', options.rounds);
const calls = positive('calls', options.calls);
const slowMs = Number(options['slow-change-ms']);
if (!Number.isFinite(slowMs) || slowMs < 0) throw new Error(`--slow-change-ms must be a number >= 0, not ${slowMs}`);

function positive(name: string, text: string | undefined): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number >= 1, not ${text}`);
  return value;
}

/** Runs a command to its end; rejects with its stderr when it fails. */
function run(command: string, args: string[], cwd: string, stdout?: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', stdout ? 'pipe' : 'ignore', 'pipe'] });
    if (stdout) child.stdout!.pipe(stdout);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${code}): ${stderr.trim()}`)),
    );
  });
}

/** The base commit's checkout with its CLI built: exported once per commit into the temp directory, then reused. */
async function prepareBase(commit: string): Promise<string> {
  const dir = join(tmpdir(), `switchboard-ab-base-${commit}`);
  const modules = await realpath(join(ROOT, 'node_modules'));
  if (existsSync(join(dir, 'dist/cli/main.js'))) {
    // Made by another checkout (its node_modules since gone or different): linked to this one's.
    const linked = join(dir, 'node_modules');
    if ((await readlink(linked).catch(() => undefined)) !== modules) {
      await rm(linked, { force: true });
      await symlink(modules, linked);
    }
    return dir;
  }
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const tar = spawn('tar', ['-x', '-C', dir], { stdio: ['pipe', 'ignore', 'inherit'] });
  const untarred = new Promise<void>((resolve, reject) =>
    tar.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar failed (${code})`)))),
  );
  await run('git', ['archive', '--format=tar', commit], ROOT, tar.stdin!);
  await untarred;
  await symlink(modules, join(dir, 'node_modules'));
  // Only what `serve` runs: the CLI bundle (build/vite.cli.config.ts) and, where the commit has it, the help
  // entry bin/ loads first (build/vite.help.config.ts); not the desktop app or the UI.
  const vite = join(dir, 'node_modules/vite/bin/vite.js');
  for (const config of ['build/vite.cli.config.ts', 'build/vite.help.config.ts']) {
    if (existsSync(join(dir, config))) await run(process.execPath, [vite, 'build', '-c', config], dir);
  }
  return dir;
}

/** Resolves `ref` (a commit, tag or branch) to its full commit id. */
function resolveCommit(ref: string): string {
  return execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
}

/** Preloaded into the change's serve by --slow-change-ms: every HTTP answer leaves that much later. */
function slowdownModule(ms: number): string {
  return `import http from 'node:http';
const end = http.ServerResponse.prototype.end;
http.ServerResponse.prototype.end = function (...args) {
  setTimeout(() => end.apply(this, args), ${ms});
  return this;
};
`;
}

interface Side {
  name: 'base' | 'change';
  url: string;
  proc: Spawned;
}

const children: Spawned[] = [];

async function startServe(name: Side['name'], root: string, dir: string, env: NodeJS.ProcessEnv): Promise<Side> {
  const home = join(dir, name);
  const config = join(dir, `${name}.json`);
  const stdio = join(ROOT, 'test/fixtures/servers/slow.mjs');
  await writeFile(
    config,
    JSON.stringify({
      mcpServers: { http: { url: env.AB_BACKEND_URL }, stdio: { command: process.execPath, args: [stdio] } },
    }),
  );
  const { proc, match } = await spawnUntilLine(
    name,
    process.execPath,
    [join(root, 'bin/mcp-switchboard.js'), 'serve', '--config', config, '--port', '0', '--quiet'],
    {
      env: { ...env, SWITCHBOARD_TOKEN: TOKEN, XDG_CONFIG_HOME: home, XDG_STATE_HOME: join(home, 'state') },
      cwd: root,
      pattern: /MCP endpoint: (\S+)/,
      timeoutMs: 30_000,
    },
  );
  children.push(proc);
  const url = match[1]!;
  await waitFor200(new URL('/readyz', url).href, 30_000);
  return { name, url, proc };
}

/** One path's samples per side: latencies (ms) and the calls/s of each block. */
interface Samples {
  latency: number[];
  rates: number[];
}

/** The figures of one path, and whether it regressed. */
interface PathVerdict {
  path: string;
  base: { p50: number; rate: number };
  change: { p50: number; rate: number };
  /** change p50 / base p50 (higher is slower). */
  p50Ratio: number;
  /** base calls/s / change calls/s (higher is slower). */
  rateRatio: number;
  /** Which measures are {@link REGRESSION} or more slower. */
  slower: ('p50' | 'calls/s')[];
  regressed: boolean;
}

/** Compares a path's two sides: a regression is either ratio at {@link REGRESSION} or more. */
function verdict(path: string, base: Samples, change: Samples): PathVerdict {
  const figures = (s: Samples): { p50: number; rate: number } => ({
    p50: percentile(
      [...s.latency].sort((a, b) => a - b),
      50,
    ),
    rate: median(s.rates),
  });
  const b = figures(base);
  const c = figures(change);
  const p50Ratio = c.p50 / b.p50;
  const rateRatio = b.rate / c.rate;
  const slower: PathVerdict['slower'] = [];
  if (p50Ratio >= REGRESSION) slower.push('p50');
  if (rateRatio >= REGRESSION) slower.push('calls/s');
  return { path, base: b, change: c, p50Ratio, rateRatio, slower, regressed: slower.length > 0 };
}

/** Fails only what regressed in the first measurement and again, on the same measure, in the second. */
function confirmed(first: PathVerdict[], second: PathVerdict[]): PathVerdict[] {
  return second.filter((again) => {
    const before = first.find((v) => v.path === again.path);
    return again.slower.some((measure) => before?.slower.includes(measure));
  });
}

/** Sequential calls on each side in `rounds` interleaved rounds (the order rotating). */
async function measure(
  path: string,
  call: Map<Side['name'], () => Promise<unknown>>,
  rounds: number,
): Promise<PathVerdict> {
  const samples = new Map<Side['name'], Samples>([
    ['base', { latency: [], rates: [] }],
    ['change', { latency: [], rates: [] }],
  ]);
  const names: Side['name'][] = ['base', 'change'];
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const fn = call.get(name)!;
      const own = samples.get(name)!;
      const start = performance.now();
      for (let i = 0; i < calls; i++) {
        const t = performance.now();
        await fn();
        own.latency.push(performance.now() - t);
      }
      own.rates.push((calls * 1000) / (performance.now() - start));
    }
  }
  return verdict(path, samples.get('base')!, samples.get('change')!);
}

function report(title: string, verdicts: PathVerdict[]): void {
  printTable(
    title,
    ['path', 'base p50 ms', 'change p50 ms', 'p50 ratio', 'base calls/s', 'change calls/s', 'slower by', ''],
    verdicts.map((v) => [
      v.path,
      v.base.p50.toFixed(2),
      v.change.p50.toFixed(2),
      `${v.p50Ratio.toFixed(2)}x`,
      v.base.rate.toFixed(0),
      v.change.rate.toFixed(0),
      `${v.rateRatio.toFixed(2)}x`,
      v.regressed ? 'REGRESSED' : '',
    ]),
  );
}

async function main(): Promise<number> {
  const pinned = options.base ?? (await readFile(join(ROOT, '.ci/perf-base'), 'utf8')).split('#')[0]!.trim();
  if (!existsSync(join(ROOT, 'dist/cli/main.js')))
    throw new Error('this checkout has no build: run npm run build:serve');
  const started = performance.now();
  const baseRoot = options['base-root'] ?? (await prepareBase(resolveCommit(pinned)));
  const built = performance.now();
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-ab-'));
  const clients: Client[] = [];
  try {
    const fixture = await spawnUntilLine('fixture', process.execPath, ['test/fixtures/servers/http-server.mjs'], {
      env: { ...process.env, PORT: '0' },
      cwd: ROOT,
      pattern: /LISTENING (\S+)/,
      timeoutMs: 30_000,
    });
    children.push(fixture.proc);
    const env: NodeJS.ProcessEnv = { ...process.env, AB_BACKEND_URL: fixture.match[1]! };
    let changeEnv = env;
    if (slowMs > 0) {
      const preload = join(dir, 'slowdown.mjs');
      await writeFile(preload, slowdownModule(slowMs));
      changeEnv = { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --import=${preload}`.trim() };
    }
    const sides = await Promise.all([
      startServe('base', baseRoot, dir, env),
      startServe('change', ROOT, dir, changeEnv),
    ]);
    const paths: { path: string; call: Map<Side['name'], () => Promise<unknown>> }[] = [];
    for (const era of ['2025', '2026'] as Era[]) {
      const connected = new Map<Side['name'], Client>();
      for (const side of sides) {
        const client = await connectHttp(realClient(era, `ab-${side.name}`), side.url, TOKEN);
        clients.push(client);
        connected.set(side.name, client);
      }
      for (const backend of ['http', 'stdio']) {
        const call = new Map<Side['name'], () => Promise<unknown>>();
        for (const [name, client] of connected) {
          const fn = async (): Promise<unknown> => {
            const result = await client.callTool(
              { name: `${backend}__echo`, arguments: { text: 'ping' } },
              { timeout: CALL_TIMEOUT_MS },
            );
            if (result.isError) throw new Error(`${name}: ${backend}__echo failed: ${JSON.stringify(result.content)}`);
            return result;
          };
          for (let i = 0; i < 10; i++) await fn(); // warm-up
          call.set(name, fn);
        }
        paths.push({ path: `${era} client, ${backend} backend`, call });
      }
    }
    const first: PathVerdict[] = [];
    for (const { path, call } of paths) first.push(await measure(path, call, rounds));
    report(`first measurement: ${rounds} interleaved rounds of ${calls} sequential calls per side`, first);
    const suspects = paths.filter(({ path }) => first.some((v) => v.path === path && v.regressed));
    const second: PathVerdict[] = [];
    // Twice the rounds: a suspect is measured longer before it fails the run.
    for (const { path, call } of suspects) second.push(await measure(path, call, rounds * 2));
    if (second.length > 0) report(`second measurement of the paths that regressed: ${rounds * 2} rounds`, second);
    const failed = confirmed(first, second);
    const load = loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
    console.log(
      `\nbase ${options['base-root'] ? baseRoot : pinned} built in ${((built - started) / 1000).toFixed(1)} s; ` +
        `whole run ${((performance.now() - started) / 1000).toFixed(1)} s; load (1/5/15 min) ${load}`,
    );
    if (failed.length === 0) {
      console.log(
        `PASS: no path ${Math.round((REGRESSION - 1) * 100)}% or more slower than the base twice on the same measure`,
      );
      return 0;
    }
    for (const v of failed) {
      console.log(
        `FAIL: ${v.path}: p50 ${v.p50Ratio.toFixed(2)}x, calls/s slower by ${v.rateRatio.toFixed(2)}x of the base ` +
          `(${v.slower.join(' and ')} ${Math.round((REGRESSION - 1) * 100)}% or more slower, twice)`,
      );
    }
    return 1;
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
    for (const proc of children.reverse()) await stopChild(proc.child);
    await rm(dir, { recursive: true, force: true });
  }
}

let watchdog: NodeJS.Timeout | undefined;
try {
  const timeout = new Promise<never>((_, reject) => {
    watchdog = setTimeout(() => reject(new Error(`the guard took longer than ${WATCHDOG_MS / 1000} s`)), WATCHDOG_MS);
  });
  process.exitCode = await Promise.race([main(), timeout]);
} catch (error) {
  console.error(`abGuard: ${error instanceof Error ? error.message : String(error)}`);
  for (const proc of children) for (const line of proc.stderr.slice(-10)) console.error(`${proc.name}: ${line}`);
  process.exitCode = 2;
} finally {
  clearTimeout(watchdog);
  for (const proc of children) await stopChild(proc.child);
}
