/**
 * Code mode against plain calls, through the real endpoint with real SDK
 * clients (2025 era) and LiveMCPBench servers answering with realistic
 * payloads (test/fixtures/servers/payloads.mjs):
 * - tokens reaching the model's context on five multi-step tasks written from
 *   the LiveMCPBench dev tasks: plain calls (each call's name and arguments
 *   plus its whole result) against one run_code (the program plus what it
 *   returns), and each way's wall time;
 * - a run's start cost: run_code of `return 1` against a direct tools/call of
 *   a tool, round trip each, interleaved;
 * - the per-call overhead of a program's call: a program making 50 calls in
 *   sequence, per call, against a direct tools/call's round trip;
 * - the sandbox alone, before and after it moved off the event loop, rounds
 *   interleaved: a run's start (`return 1`) and the overhead a call adds (a
 *   program of 50 calls to a host answering at once, per call), in the
 *   engine on the main thread (sandboxRunner's runProgram, as code mode ran
 *   before) against a worker thread of the pool (runInWorker, as it runs now).
 */
import { join, resolve } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Client } from '@modelcontextprotocol/client';
import { ClientTokens } from '../electron/core/catalog/index.js';
import { loadCodeSandbox } from '../electron/core/frontend/index.js';
import { nodeServer, startProxy, tempDir } from '../test/helpers/harness.js';
import { printTable, summarize } from './lib.js';

const ROOT = resolve(import.meta.dirname, '..');
const CATALOG = join(ROOT, '../shared/datasets/livemcpbench/tools.json');
const FIXTURE = join(ROOT, 'test/fixtures/servers/payloads.mjs');
const SERVERS: Record<string, string> = {
  osm: 'osm-mcp-server',
  finance: 'yahoo-finance',
  trends: 'trends-hub',
  kospi: 'kospi-kosdaq',
  calc: 'calculator',
  bio: 'biomcp',
  fs: 'filesystem',
  time: 'time',
};
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 30);

/** A parsed result, read as the model reads it (any shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
/** One plain step: the tool and its arguments, from what earlier steps returned. */
type Step = (previous: Json[]) => [string, Record<string, unknown>];

/** A task done both ways: the calls a model makes one by one, and the program it writes instead. */
interface Task {
  id: string;
  query: string;
  steps: Step[];
  program: string;
}

const TASKS: Task[] = [
  {
    id: 'dda8ea55',
    query: 'Forbidden City: where to park and what to do within 1 km',
    steps: [
      () => ['osm__geocode_address', { address: 'Forbidden City, Beijing' }],
      ([g]) => ['osm__find_parking_facilities', { latitude: g[0].lat, longitude: g[0].lon, radius: 1000 }],
      ([g]) => ['osm__find_nearby_places', { latitude: g[0].lat, longitude: g[0].lon, radius: 1000 }],
      ([, p]) => ['osm__reverse_geocode', { latitude: p.results[0].lat, longitude: p.results[0].lon }],
    ],
    program: `const [place] = await tools.osm.geocode_address({ address: 'Forbidden City, Beijing' });
const at = { latitude: place.lat, longitude: place.lon, radius: 1000 };
const [parking, nearby] = await Promise.all([tools.osm.find_parking_facilities(at), tools.osm.find_nearby_places(at)]);
const best = parking.results.sort((a, b) => a.distance_m - b.distance_m).slice(0, 5);
const where = await tools.osm.reverse_geocode({ latitude: best[0].lat, longitude: best[0].lon });
return { parking: best.map((p) => [p.name, p.distance_m, p.tags.fee]), nearestAddress: where.display_name,
  todo: nearby.results.sort((a, b) => a.distance_m - b.distance_m).slice(0, 8).map((p) => [p.name, p.category, p.distance_m]) };`,
  },
  {
    id: '88ccea26',
    query: "Analyze Apple's stock for the past year",
    steps: [
      () => ['finance__get_historical_stock_prices', { ticker: 'AAPL', period: '1y', interval: '1d' }],
      () => ['finance__get_news', { ticker: 'AAPL' }],
      () => ['finance__get_recommendations', { ticker: 'AAPL', recommendation_type: 'recommendations' }],
    ],
    program: `const [prices, news, recs] = await Promise.all([
  tools.finance.get_historical_stock_prices({ ticker: 'AAPL', period: '1y', interval: '1d' }),
  tools.finance.get_news({ ticker: 'AAPL' }),
  tools.finance.get_recommendations({ ticker: 'AAPL', recommendation_type: 'recommendations' }),
]);
const closes = prices.map((p) => p.close);
return { first: prices[0], last: prices[prices.length - 1], high: Math.max(...closes), low: Math.min(...closes),
  avgVolume: Math.round(prices.reduce((s, p) => s + p.volume, 0) / prices.length),
  headlines: news.slice(0, 5).map((n) => n.title), latestRecommendation: recs[0] };`,
  },
  {
    id: '8aaa7e7f',
    query: "Find today's top LLM-related news",
    steps: [
      () => ['trends__get-36kr-trending', {}],
      () => ['trends__get-bbc-news', { category: 'technology' }],
      () => ['trends__get-theverge-news', {}],
    ],
    program: `const feeds = await Promise.all([tools.trends['get-36kr-trending']({}), tools.trends['get-bbc-news']({ category: 'technology' }), tools.trends['get-theverge-news']({})]);
return feeds.flat().filter((a) => /LLM|language model/i.test(a.title)).slice(0, 10).map((a) => ({ title: a.title, url: a.url }));`,
  },
  {
    id: '470f7ac1',
    query: 'Samsung Electronics and SK Hynix today: prices, daily change, market cap ratio',
    steps: [
      () => ['time__get_current_time', { timezone: 'Asia/Seoul' }],
      () => ['kospi__get_stock_ohlcv', { ticker: '005930', fromdate: '20250501', todate: '20250602' }],
      () => ['kospi__get_stock_ohlcv', { ticker: '000660', fromdate: '20250501', todate: '20250602' }],
      () => ['kospi__get_stock_market_cap', { ticker: '005930', fromdate: '20250602', todate: '20250602' }],
      () => ['kospi__get_stock_market_cap', { ticker: '000660', fromdate: '20250602', todate: '20250602' }],
      ([, , , a, b]) => ['calc__calculate', { expression: `${a.market_cap} / ${b.market_cap}` }],
    ],
    program: `const now = await tools.time.get_current_time({ timezone: 'Asia/Seoul' });
const day = { fromdate: '20250501', todate: '20250602' };
const [s, h, sc, hc] = await Promise.all([
  tools.kospi.get_stock_ohlcv({ ticker: '005930', ...day }), tools.kospi.get_stock_ohlcv({ ticker: '000660', ...day }),
  tools.kospi.get_stock_market_cap({ ticker: '005930', fromdate: '20250602', todate: '20250602' }),
  tools.kospi.get_stock_market_cap({ ticker: '000660', fromdate: '20250602', todate: '20250602' })]);
const change = (rows) => { const [a, b] = rows.slice(-2); return +(((b.close - a.close) / a.close) * 100).toFixed(2); };
const ratio = await tools.calc.calculate({ expression: sc.market_cap + ' / ' + hc.market_cap });
return { at: now.datetime, samsung: [s.at(-1).close, change(s)], hynix: [h.at(-1).close, change(h)], capRatio: ratio.result };`,
  },
  {
    id: '2bf318d4',
    query: 'Emerging treatments for head and neck cancer, report to /root/markdown/cancer.md',
    steps: [
      () => ['bio__article_searcher', { diseases: ['head and neck cancer'], keywords: ['treatment'] }],
      () => ['bio__trial_searcher', { conditions: ['head and neck cancer'], recruiting_status: 'OPEN' }],
      () => ['bio__variant_searcher', { gene: 'TP53' }],
      ([a, t, v]) => [
        'fs__write_file',
        {
          path: '/root/markdown/cancer.md',
          content: [
            '# Head and neck cancer: emerging treatments',
            ...(a as { title: string; year: number }[]).slice(0, 8).map((x) => `- ${x.title} (${x.year})`),
            '## Trials',
            ...(t as { title: string; phase: string }[]).slice(0, 8).map((x) => `- ${x.title} ${x.phase}`),
            '## Variants',
            ...(v as { id: string; title: string }[]).slice(0, 5).map((x) => `- ${x.id}: ${x.title}`),
          ].join('\n'),
        },
      ],
    ],
    program: `const [a, t, v] = await Promise.all([
  tools.bio.article_searcher({ diseases: ['head and neck cancer'], keywords: ['treatment'] }),
  tools.bio.trial_searcher({ conditions: ['head and neck cancer'], recruiting_status: 'OPEN' }),
  tools.bio.variant_searcher({ gene: 'TP53' })]);
const content = ['# Head and neck cancer: emerging treatments', ...a.slice(0, 8).map((x) => '- ' + x.title + ' (' + x.year + ')'),
  '## Trials', ...t.slice(0, 8).map((x) => '- ' + x.title + ' ' + x.phase), '## Variants', ...v.slice(0, 5).map((x) => '- ' + x.id + ': ' + x.title)].join('\\n');
const wrote = await tools.fs.write_file({ path: '/root/markdown/cancer.md', content });
return { wrote, articles: a.length, trials: t.length, variants: v.length, topTrials: t.slice(0, 3).map((x) => x.title) };`,
  },
];

const text = (result: unknown): string =>
  ((result as { content?: { type: string; text?: string }[] }).content ?? []).map((part) => part.text ?? '').join('\n');

async function plain(client: Client, task: Task): Promise<{ tokens: number; ms: number }> {
  const started = performance.now();
  const results: Json[] = [];
  let tokens = 0;
  for (const step of task.steps) {
    const [name, args] = step(results);
    const answer = text(await client.callTool({ name, arguments: args }));
    // The model writes the call (name and arguments) and reads its whole result.
    tokens += countTokens(JSON.stringify({ name, arguments: args })) + countTokens(answer);
    results.push((answer.startsWith('{') || answer.startsWith('[') ? JSON.parse(answer) : answer) as Json);
  }
  return { tokens, ms: performance.now() - started };
}

async function coded(client: Client, task: Task): Promise<{ tokens: number; ms: number }> {
  const started = performance.now();
  const result = await client.callTool({ name: 'run_code', arguments: { code: task.program } });
  if (result.isError) throw new Error(`${task.id}: ${text(result)}`);
  const tokens =
    countTokens(JSON.stringify({ name: 'run_code', arguments: { code: task.program } })) + countTokens(text(result));
  return { tokens, ms: performance.now() - started };
}

const dir = await tempDir();
const mcpServers = Object.fromEntries(
  Object.entries(SERVERS).map(([id, server]) => [
    id,
    nodeServer(FIXTURE, [], { env: { PAYLOAD_SERVER: server, PAYLOAD_CATALOG: CATALOG } }),
  ]),
);
const proxy = await startProxy({ mcpServers }, { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')) });
try {
  const code = await proxy.core.profiles.createProfile('coder', { name: 'Coder', exposure: 'code' });
  const direct = await proxy.connect('legacy');
  const coder = await proxy.connect('legacy', code);
  const listTokens = async (client: Client) => countTokens(JSON.stringify(await client.listTools()));

  // The first run of the process starts a worker and compiles the engine in it.
  let at = performance.now();
  await coder.callTool({ name: 'run_code', arguments: { code: 'return 1;' } });
  const firstRunMs = performance.now() - at;

  const rows: string[][] = [];
  let plainTotal = 0;
  let codeTotal = 0;
  for (const task of TASKS) {
    await coded(coder, task); // warm: the engine's first load is counted in the start cost below
    const a = await plain(direct, task);
    const b = await coded(coder, task);
    plainTotal += a.tokens;
    codeTotal += b.tokens;
    rows.push([
      task.id,
      String(task.steps.length),
      String(a.tokens),
      String(b.tokens),
      `${((1 - b.tokens / a.tokens) * 100).toFixed(0)}%`,
      a.ms.toFixed(1),
      b.ms.toFixed(1),
    ]);
  }
  rows.push([
    'all five',
    '',
    String(plainTotal),
    String(codeTotal),
    `${((1 - codeTotal / plainTotal) * 100).toFixed(0)}%`,
    '',
    '',
  ]);
  printTable(
    'Code mode: tokens reaching the model per task (o200k), plain calls vs one run_code (target >= 50% fewer)',
    ['task', 'calls', 'plain tokens', 'code tokens', 'fewer', 'plain ms', 'code ms'],
    rows,
  );
  printTable(
    'tools/list the model reads (o200k tokens)',
    ['all (plain)', 'code (run_code with declarations)'],
    [[String(await listTokens(direct)), String(await listTokens(coder))]],
  );

  // Start cost and per-call overhead, interleaved round trips.
  const call = { name: 'calc__calculate', arguments: { expression: '1 + 1' } };
  const directMs: number[] = [];
  const emptyMs: number[] = [];
  const fiftyMs: number[] = [];
  const fifty = `for (let i = 0; i < 50; i++) await tools.calc.calculate({ expression: '1 + ' + i });\nreturn 1;`;
  for (let i = 0; i < ROUNDS; i++) {
    at = performance.now();
    await direct.callTool(call);
    directMs.push(performance.now() - at);
    at = performance.now();
    await coder.callTool({ name: 'run_code', arguments: { code: 'return 1;' } });
    emptyMs.push(performance.now() - at);
    at = performance.now();
    await coder.callTool({ name: 'run_code', arguments: { code: fifty } });
    fiftyMs.push(performance.now() - at);
  }
  const d = summarize(directMs);
  const e = summarize(emptyMs);
  const f = summarize(fiftyMs);
  const perCall = (f.p50 - e.p50) / 50;
  printTable(
    `Code mode: a run's cost (ms, p50 of ${ROUNDS}, round trips over HTTP, 2025 era)`,
    [
      'direct tools/call',
      'run_code `return 1`',
      'start cost (difference)',
      'a program call',
      'overhead vs direct',
      'first run (cold worker)',
    ],
    [
      [
        d.p50.toFixed(2),
        e.p50.toFixed(2),
        (e.p50 - d.p50).toFixed(2),
        perCall.toFixed(3),
        `${(perCall - d.p50).toFixed(3)} (${(perCall / d.p50).toFixed(2)}x)`,
        firstRunMs.toFixed(1),
      ],
    ],
  );

  // The sandbox alone: before (engine on the main thread) and after (a worker of the pool), interleaved.
  const { pool, runner } = await loadCodeSandbox();
  const { DEFAULT_LIMITS, runInWorker } = pool;
  const runProgram = runner.runProgram;
  const instant = (name: string) => Promise.resolve({ name });
  const namespaces = { calc: { calculate: 'calc__calculate' } };
  const fiftyInstant = `for (let i = 0; i < 50; i++) await tools.calc.calculate({ i });\nreturn 1;`;
  const ways = { 'main thread (before)': runProgram, 'worker (now)': runInWorker };
  const times = Object.fromEntries(
    Object.keys(ways).map((way) => [way, { start: [] as number[], fifty: [] as number[] }]),
  );
  for (const run of Object.values(ways)) await run('return 1;', namespaces, instant, DEFAULT_LIMITS); // warm
  for (let i = 0; i < ROUNDS * 2; i++) {
    for (const [way, run] of Object.entries(ways)) {
      let at = performance.now();
      const out = await run('return 1;', namespaces, instant, DEFAULT_LIMITS);
      times[way]!.start.push(performance.now() - at);
      at = performance.now();
      const many = await run(fiftyInstant, namespaces, instant, DEFAULT_LIMITS);
      times[way]!.fifty.push(performance.now() - at);
      if (!out.ok || !many.ok || many.calls !== 50) throw new Error(`${way}: ${JSON.stringify(many)}`);
    }
  }
  const sandboxRows = Object.keys(ways).map((way) => {
    const start = summarize(times[way]!.start);
    const fifty = summarize(times[way]!.fifty);
    return [
      way,
      start.p50.toFixed(2),
      start.p99.toFixed(2),
      ((fifty.p50 - start.p50) / 50).toFixed(3),
      d.p50.toFixed(2),
    ];
  });
  printTable(
    `Code mode's sandbox alone (ms, ${ROUNDS * 2} interleaved rounds; targets: start < 20, a call's overhead < 1 at p50)`,
    ['engine on', 'start p50', 'start p99', "a call's overhead p50", 'direct tools/call p50 (above)'],
    sandboxRows,
  );
} finally {
  await proxy.close();
  await dir.cleanup();
}
