// Profiling aid for the proxy hop (not part of `npm run bench`): starts the HTTP fixture and a real
// `serve` (node dist build) with the inspector on, loads it with a client that declares what Claude
// Code and Cursor declare (roots, sampling, elicitation), records a CPU profile of serve over the
// steady load only (the DevTools protocol's Profiler, so start-up is left out), writes it, and
// prints the top self-time entries per call (bench/cpuProfileTop.ts).
//   node --import tsx bench/hopProfile.ts [2025|2026] [calls] [concurrency] [call|list]
// HOP_SERVE_ROOT=<checkout> runs that checkout's serve (e.g. main's, for a before/after);
// HOP_PROFILE_DIR keeps the profile there.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connectHttp, realClient } from './benchClients.js';
import { spawnUntilLine, stopChild, throughput, waitFor200 } from './lib.js';
import { printTop } from './cpuProfileTop.js';
import { Inspector } from './inspector.js';
import { cpuTime } from './processCpu.js';
import type { CpuTime } from './processCpu.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const era = process.argv[2] === '2026' ? '2026' : '2025';
const calls = Number(process.argv[3] ?? 4000);
const concurrency = Number(process.argv[4] ?? 4);
const what = process.argv[5] === 'list' ? 'list' : 'call';
const TOKEN = 'hop-profile-token-0123456789abcdef';

const dir = await mkdtemp(join(tmpdir(), 'switchboard-hop-'));
const profDir = process.env.HOP_PROFILE_DIR ?? join(dir, 'prof');
const profFile = join(profDir, `serve-${era}-${what}-c${concurrency}.cpuprofile`);
const fixture = await spawnUntilLine('fixture', process.execPath, ['test/fixtures/servers/http-server.mjs'], {
  env: { ...process.env, PORT: '0' },
  cwd: ROOT,
  pattern: /LISTENING (\S+)/,
  timeoutMs: 20_000,
});
const config = join(dir, 'config.json');
await writeFile(config, JSON.stringify({ mcpServers: { bench: { url: fixture.match[1] } } }));
const env = { ...process.env, SWITCHBOARD_TOKEN: TOKEN, XDG_CONFIG_HOME: dir, XDG_STATE_HOME: join(dir, 'state') };
const serve = await spawnUntilLine(
  'serve',
  process.execPath,
  [
    '--inspect=127.0.0.1:0',
    join(process.env.HOP_SERVE_ROOT ?? ROOT, 'bin/mcp-switchboard.js'),
    'serve',
    '--config',
    config,
    '--port',
    '0',
    '--quiet',
  ],
  { env, cwd: ROOT, pattern: /MCP endpoint: (\S+)/, timeoutMs: 20_000 },
);
const url = serve.match[1]!;
try {
  await waitFor200(new URL('/readyz', url).href, 20_000);
  const client = await connectHttp(realClient(era, 'claude-code'), url, TOKEN);
  const run = (): Promise<unknown> =>
    what === 'list'
      ? client.listTools(undefined, { cacheMode: 'bypass' })
      : client.callTool({ name: 'bench__echo', arguments: { text: 'ping' } });
  await throughput(300, concurrency, run);
  // Without the profiler first: its sampling costs CPU of its own.
  const pids = { serve: serve.proc.child.pid!, backend: fixture.proc.child.pid! };
  const before = { serve: cpuTime(pids.serve), backend: cpuTime(pids.backend) };
  const ownBefore = process.cpuUsage();
  const perSecond = await throughput(calls, concurrency, run);
  const own = process.cpuUsage(ownBefore);
  const used = (pid: number, was: CpuTime): CpuTime => {
    const now = cpuTime(pid);
    return { user: (now.user - was.user) / calls, system: (now.system - was.system) / calls };
  };
  const cpu = { serve: used(pids.serve, before.serve), backend: used(pids.backend, before.backend) };
  const text = (t: CpuTime): string => `${t.user.toFixed(0)} µs user + ${t.system.toFixed(0)} µs system`;
  // The backend does the same kind of work (an SDK server per call): the ratio holds better than µs under load.
  const relative = (cpu.serve.user + cpu.serve.system) / (cpu.backend.user + cpu.backend.system);
  console.log(`${era}-era ${what}: ${calls} at concurrency ${concurrency}: ${perSecond.toFixed(0)}/s`);
  console.log(
    `CPU per call: serve ${text(cpu.serve)}; backend ${text(cpu.backend)}; serve/backend ${relative.toFixed(2)}; ` +
      `client ${text({ user: own.user / calls, system: own.system / calls })}`,
  );
  const inspector = await Inspector.attach(serve.proc.stderr);
  await inspector.send('Profiler.enable');
  await inspector.send('Profiler.setSamplingInterval', { interval: 250 });
  await inspector.send('Profiler.start');
  await throughput(calls, concurrency, run);
  const { profile } = (await inspector.send('Profiler.stop')) as { profile: unknown };
  inspector.close();
  await mkdir(profDir, { recursive: true });
  await writeFile(profFile, JSON.stringify(profile));
  await client.close();
} catch (error) {
  for (const proc of [serve.proc, fixture.proc])
    for (const l of proc.stderr.slice(-8)) console.error(`${proc.name}: ${l}`);
  throw error;
} finally {
  await stopChild(serve.proc.child);
  await stopChild(fixture.proc.child);
}
const warnings = serve.proc.stderr.filter((l) => /warn|error/i.test(l));
if (warnings.length > 0) console.log(`serve stderr: ${warnings.length} warning lines, first: ${warnings[0]}`);
await printTop(profFile, calls);
console.log(`profile: ${profFile}`);
if (process.env.HOP_PROFILE_DIR === undefined) await rm(dir, { recursive: true, force: true });
