// A flooding backend beside a quiet one (issue 25, containment), measured on the real `serve`:
// the quiet backend's tools/call latency alone and while the other floods (N log and N progress
// notifications as fast as it can, to a 2025-era client that reads its stream), serve's RSS before,
// at the peak and 5 s after, and how many notifications reached the flooding call's client. A second
// run has a client that stops reading (its GET stream and its call's stream left unread) while the
// backend floods STALLED_N logs of 20 KB (400 MB) and as many progress notifications: serve's RSS at
// the peak and after, the other client's latency meanwhile, and when the stuck session was ended.
// A third run floods 10,000 logs of 20 KB (200 MB) to a client that reads, and samples serve's RSS
// 1, 3 and 5 s after. With FLOOD_BEFORE=<a checkout's root> (its bin/ and dist/ built, e.g. from main
// through `git worktree add`), every figure is measured on that build first, then on this one, and
// printed side by side with the ratio (this/before) in one run.
// Run: [FLOOD_BEFORE=DIR] node --import tsx bench/flood.ts [N=50000] [STALLED_N=20000] (after npm run build:serve)
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { printTable, spawnUntilLine, stopChild, type Spawned } from './lib.js';

const ROOT = resolve(import.meta.dirname, '..');
const FLOOD = join(ROOT, 'test/fixtures/servers/flood.mjs');
const QUIET = join(ROOT, 'test/fixtures/servers/slow.mjs');
const COUNT = Number(process.argv[2] ?? 50_000);
const STALLED_COUNT = Number(process.argv[3] ?? 20_000);
const STALLED_BYTES = 20_000;
const STALLED_WATCH_MS = 45_000;
const BIG_COUNT = 10_000;
const EARLY_MS = 1500;
const BEFORE = process.env['FLOOD_BEFORE'];
const TOKEN = 'bench-token-flood-0123456789';

const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-flood-'));
let serve: Spawned | undefined;

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

async function startServe(root: string): Promise<{ url: string; pid: number }> {
  const config = {
    mcpServers: {
      noisy: { command: process.execPath, args: [FLOOD] },
      quiet: { command: process.execPath, args: [QUIET] },
    },
  };
  const configPath = join(dir, 'config.json');
  await writeFile(configPath, JSON.stringify(config));
  const env = { ...process.env, SWITCHBOARD_TOKEN: TOKEN, XDG_CONFIG_HOME: dir, XDG_STATE_HOME: join(dir, 'state') };
  const { proc, match } = await spawnUntilLine(
    'serve',
    process.execPath,
    [join(root, 'bin/mcp-switchboard.js'), 'serve', '--config', configPath, '--port', '0'],
    { env, cwd: root, pattern: /MCP endpoint: (\S+)/, timeoutMs: 30_000 },
  );
  serve = proc;
  return { url: match[1]!, pid: proc.child.pid! };
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'bench-flood', version: '1.0.0' });
  const headers = { Authorization: `Bearer ${TOKEN}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

function stats(samples: number[]): { p50: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length / 2)] ?? NaN, max: sorted.at(-1) ?? NaN };
}

/** The quiet server's echo timed again and again; `early` gets those started within EARLY_MS of `since`. */
async function echoTimes(
  client: Client,
  until: () => boolean,
  atLeast = 0,
  early?: { since: number; samples: number[] },
): Promise<number[]> {
  const samples: number[] = [];
  while (samples.length < atLeast || !until()) {
    const start = performance.now();
    await client.callTool({ name: 'quiet__echo', arguments: { text: 'x' } }, { timeout: 120_000 });
    samples.push(performance.now() - start);
    if (early && start - early.since < EARLY_MS) early.samples.push(performance.now() - start);
    await new Promise((r) => setTimeout(r, 10));
  }
  return samples;
}

/** Samples RSS every 200 ms until stopped; returns the peak. */
function rssPeak(pid: number): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, await rssMb(pid));
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}

/** A 2025-era session by raw HTTP whose GET stream and flood call are never read. */
async function stalledClient(url: string): Promise<{ session: string; end(): void }> {
  const post = async (body: unknown, session?: string): Promise<Response> =>
    fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
      },
      body: JSON.stringify(body),
    });
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stalled', version: '1' } };
  const init = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
  await init.text();
  const session = init.headers.get('mcp-session-id')!;
  await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
  const opened: { destroy(): void }[] = [];
  const unread = (method: string, body?: unknown): void => {
    const req = request(url, {
      method,
      headers: {
        authorization: `Bearer ${TOKEN}`,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
      },
    });
    // The response is never read: its socket fills and the server's writes back up.
    req.on('response', (res) => res.pause());
    req.on('error', () => undefined);
    req.end(body === undefined ? undefined : JSON.stringify(body));
    opened.push(req);
  };
  unread('GET');
  const args = { count: STALLED_COUNT, bytes: STALLED_BYTES };
  const call = { name: 'noisy__flood', arguments: args, _meta: { progressToken: 'p' } };
  unread('POST', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: call });
  return { session, end: () => opened.forEach((req) => req.destroy()) };
}

/** One build's figures, in the order printed. */
type Figures = [label: string, value: number, unit: string][];

/** Every scenario against one build (its root's bin/ and dist/), serve started afresh. */
async function measure(root: string): Promise<Figures> {
  const figures: Figures = [];
  const { url, pid } = await startServe(root);
  const flooder = await connect(url);
  const quiet = await connect(url);
  let logs = 0;
  flooder.setNotificationHandler('notifications/message', () => void logs++);
  while ((await quiet.listTools()).tools.length < 4) await new Promise((r) => setTimeout(r, 100));
  await echoTimes(quiet, () => true, 20); // warm-up
  const alone = stats(await echoTimes(quiet, () => true, 100));
  const rssBefore = await rssMb(pid);
  const peak = rssPeak(pid);
  let progress = 0;
  let done = false;
  const started = performance.now();
  const flood = flooder
    .callTool(
      { name: 'noisy__flood', arguments: { count: COUNT } },
      { timeout: 300_000, onprogress: () => void progress++ },
    )
    .finally(() => (done = true));
  const early = { since: started, samples: [] as number[] };
  const during = stats(await echoTimes(quiet, () => done, 20, early));
  await flood;
  const floodMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, 5000));
  const rssPeakMb = await peak.stop();
  const rssAfter = await rssMb(pid);
  figures.push(
    ['quiet p50 alone', alone.p50, 'ms'],
    ['quiet max alone', alone.max, 'ms'],
    [`quiet p50 during the flood (${COUNT} logs + progress)`, during.p50, 'ms'],
    ['quiet max during the flood', during.max, 'ms'],
    [`quiet max in the flood's first ${EARLY_MS / 1000} s`, stats(early.samples).max, 'ms'],
    ['flood call took', floodMs, 'ms'],
    ['logs that reached the client', logs, ''],
    ['progress that reached the client', progress, ''],
    ['serve RSS before', rssBefore, 'MB'],
    ['serve RSS peak', rssPeakMb, 'MB'],
    ['serve RSS 5 s after', rssAfter, 'MB'],
  );

  // A large log flood to a client that reads: how soon serve's memory comes back.
  const bigBefore = await rssMb(pid);
  const bigPeak = rssPeak(pid);
  await flooder.callTool(
    { name: 'noisy__flood', arguments: { count: BIG_COUNT, bytes: STALLED_BYTES } },
    { timeout: 300_000 },
  );
  const after: number[] = [];
  for (const wait of [1000, 2000, 2000]) {
    await new Promise((r) => setTimeout(r, wait));
    after.push(await rssMb(pid));
  }
  figures.push(
    [
      `RSS over before, peak (${BIG_COUNT} x ${STALLED_BYTES / 1000} KB logs)`,
      (await bigPeak.stop()) - bigBefore,
      'MB',
    ],
    ['RSS over before, 1 s after', after[0]! - bigBefore, 'MB'],
    ['RSS over before, 3 s after', after[1]! - bigBefore, 'MB'],
    ['RSS over before, 5 s after', after[2]! - bigBefore, 'MB'],
  );
  await flooder.close();

  const warningsBefore = serve!.stderr.filter((line) => line.includes('MaxListenersExceededWarning')).length;
  const stalledPeak = rssPeak(pid);
  const stalledBefore = await rssMb(pid);
  const stalled = await stalledClient(url);
  const stalledStart = performance.now();
  let endedAfter: number | undefined;
  const ended = (): boolean => serve!.stderr.some((line) => line.includes(`ended session ${stalled.session}`));
  const other = stats(
    await echoTimes(
      quiet,
      () => {
        if (endedAfter === undefined && ended()) endedAfter = performance.now() - stalledStart;
        return endedAfter !== undefined || performance.now() - stalledStart > STALLED_WATCH_MS;
      },
      20,
    ),
  );
  const stalledPeakMb = await stalledPeak.stop();
  stalled.end();
  await new Promise((r) => setTimeout(r, 3000));
  const listenerWarnings =
    serve!.stderr.filter((line) => line.includes('MaxListenersExceededWarning')).length - warningsBefore;
  figures.push(
    [
      `stalled client (${STALLED_COUNT} x ${STALLED_BYTES / 1000} KB logs): RSS over before, peak`,
      stalledPeakMb - stalledBefore,
      'MB',
    ],
    ['stalled: RSS over before, 3 s after it left', (await rssMb(pid)) - stalledBefore, 'MB'],
    ['stalled: other client p50', other.p50, 'ms'],
    ['stalled: other client max', other.max, 'ms'],
    ['stalled: session ended after', endedAfter ?? STALLED_WATCH_MS, 'ms'],
    ['stalled: MaxListenersExceededWarning lines', listenerWarnings, ''],
  );
  await quiet.close();
  await stopChild(serve!.child);
  serve = undefined;
  return figures;
}

const show = (value: number, unit: string): string => `${value.toFixed(unit === '' ? 0 : 1)}${unit ? ` ${unit}` : ''}`;

try {
  const before = BEFORE === undefined ? undefined : await measure(resolve(BEFORE));
  const now = await measure(ROOT);
  const title = `a flooding backend beside a quiet one, a large log flood, a client that stops reading; load ${loadavg()[0]!.toFixed(1)}`;
  if (before === undefined) {
    printTable(
      title,
      ['measure', 'value'],
      now.map(([label, value, unit]) => [label, show(value, unit)]),
    );
  } else {
    printTable(
      `${title} (before: ${BEFORE})`,
      ['measure', 'before', 'this build', 'this/before'],
      now.map(([label, value, unit], at) => {
        const was = before[at]![1];
        return [label, show(was, unit), show(value, unit), was === 0 ? '-' : `${(value / was).toFixed(2)}x`];
      }),
    );
  }
} finally {
  if (serve) await stopChild(serve.child);
  await rm(dir, { recursive: true, force: true });
}
