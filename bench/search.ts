// Search benchmark (issue 15): the LiveMCPBench catalog (70 servers, 527 tools) served by our
// catalog fixture through the real `serve`, scored on the labelled tasks through a real SDK
// client calling `search_tools`, beside a plain BM25 baseline (one text field) on the same data
// in the same run; tools/list tokens in all vs search mode (o200k, gpt-tokenizer); in-process
// index build time and search latency on 1000+ tools. Writes bench/results/search.json.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { ORIGIN_META_KEY, ClientTokens } from '../electron/core/catalog/index.js';
import { ToolSearchIndex } from '../electron/core/frontend/index.js';
import { percentile, printTable, spawnUntilLine, stopChild, waitFor200 } from './lib.js';
import MiniSearch from 'minisearch';
import {
  baselineRanker,
  DATASET_DIR,
  loadServers,
  loadTasks,
  oneField,
  score,
  type SearchScores,
} from './searchScoring.js';

const ROOT = join(import.meta.dirname, '..');
const CATALOG_FIXTURE = join(ROOT, 'test/fixtures/servers/catalog-http.mjs');
const RESULTS = join(ROOT, 'bench/results/search.json');
const LIMIT = 10;

const cleanups: (() => Promise<unknown>)[] = [];

/** A dataset server's name as a backend ID (letters, digits, _ and -, starting with a letter). */
const backendIdOf = (server: string): string => {
  const id = server.replace(/[^A-Za-z0-9_-]+/g, '-');
  return /^[A-Za-z]/.test(id) ? id : `s-${id}`;
};

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'bench-search', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  cleanups.push(() => client.close());
  return client;
}

/** Starts the catalog fixture and `serve` over it; resolves with the endpoint and the two clients' tokens. */
async function startServe(dir: string): Promise<{ url: string; mainToken: string; searchToken: string }> {
  const servers = loadServers();
  const fixture = await spawnUntilLine('catalog', process.execPath, [CATALOG_FIXTURE], {
    env: { ...process.env, FIXTURE_CATALOG: join(DATASET_DIR, 'tools.json') },
    cwd: ROOT,
    pattern: /LISTENING (\S+)/,
    timeoutMs: 20_000,
  });
  cleanups.push(() => stopChild(fixture.proc.child));
  const base = fixture.match[1]!;
  const home = join(dir, 'home');
  const configDir = join(home, 'mcp-switchboard');
  await mkdir(configDir, { recursive: true });
  const config = join(configDir, 'config.json');
  const mcpServers = Object.fromEntries(
    Object.keys(servers).map((id) => [backendIdOf(id), { url: `${base}/${encodeURIComponent(id)}/mcp` }]),
  );
  await writeFile(
    config,
    JSON.stringify({
      proxy: { maxBackends: 100 },
      mcpServers,
      policy: { clients: { searcher: { name: 'Searcher', exposure: 'search' } } },
    }),
  );
  const searchToken = await new ClientTokens(join(configDir, 'client-tokens.json')).issue('searcher');
  const mainToken = randomBytes(24).toString('hex');
  const env = {
    ...process.env,
    SWITCHBOARD_TOKEN: mainToken,
    XDG_CONFIG_HOME: home,
    XDG_STATE_HOME: join(home, 'state'),
  };
  const serve = await spawnUntilLine(
    'serve',
    process.execPath,
    ['bin/mcp-switchboard.js', 'serve', '--config', config, '--port', '0'],
    {
      env,
      cwd: ROOT,
      pattern: /MCP endpoint: (\S+)/,
      timeoutMs: 30_000,
    },
  );
  cleanups.push(() => stopChild(serve.proc.child));
  const url = serve.match[1]!;
  await waitFor200(new URL('/readyz', url).href, 60_000);
  return { url, mainToken, searchToken };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const ms = (x: number): string => `${x.toFixed(2)} ms`;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-bench-search-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const tasks = loadTasks();
  const servers = loadServers();
  const { url, mainToken, searchToken } = await startServe(dir);
  const all = await connect(url, mainToken);
  const searcher = await connect(url, searchToken);

  // Wait for every backend's tools (readyz says one is up; the catalog fills as they connect).
  const expected = Object.values(servers).reduce((n, s) => n + s.tools.length, 0);
  let allTools = (await all.listTools()).tools;
  for (let i = 0; i < 200 && allTools.length < expected; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    allTools = (await all.listTools(undefined, { cacheMode: 'bypass' })).tools;
  }
  const serverOf = new Map(Object.keys(servers).map((id) => [backendIdOf(id), id]));
  const origin = new Map(
    allTools.map((tool) => {
      const meta = tool._meta?.[ORIGIN_META_KEY] as { backend: string; name: string };
      return [tool.name, { backend: meta.backend, server: serverOf.get(meta.backend)!, tool: meta.name }];
    }),
  );
  const searchTools = (await searcher.listTools()).tools;
  const tokensAll = countTokens(JSON.stringify({ tools: allTools }));
  const tokensSearch = countTokens(JSON.stringify({ tools: searchTools }));

  // Through serve: each task's query as search_tools arguments, end to end.
  const ranked = new Map<string, { server: string; tool: string }[]>();
  const e2e: number[] = [];
  for (const task of tasks) {
    const start = performance.now();
    const result = await searcher.callTool({ name: 'search_tools', arguments: { query: task.query, limit: LIMIT } });
    e2e.push(performance.now() - start);
    const found = (result.structuredContent as { tools: { name: string }[] }).tools;
    ranked.set(task.query, found.map((t) => origin.get(t.name)!).filter(Boolean));
  }
  const ours = score(tasks, (query) => ranked.get(query) ?? []);

  // Tokens of a 5-result answer (content and structured content, as the client received them), compact vs full.
  const answerTokens = { compact: [] as number[], full: [] as number[] };
  for (const task of tasks) {
    for (const detail of ['compact', 'full'] as const) {
      const result = await searcher.callTool({
        name: 'search_tools',
        arguments: { query: task.query, limit: 5, detail },
      });
      answerTokens[detail].push(
        countTokens(JSON.stringify({ content: result.content, structuredContent: result.structuredContent })),
      );
    }
  }
  const compactTokens = [...answerTokens.compact].sort((a, b) => a - b);
  const fullTokens = [...answerTokens.full].sort((a, b) => a - b);
  const baseline = score(tasks, baselineRanker(servers));

  // In process, on 1000+ tools (the catalog twice under other server IDs): build and search time.
  const doubled = [1, 2].flatMap((copy) =>
    allTools.map((tool) => {
      const from = origin.get(tool.name)!;
      const backendId = copy === 1 ? from.backend : `${from.backend}-2`;
      return {
        tool: { ...tool, name: `${backendId}__${from.tool}`.slice(0, 64) },
        origin: { backendId, original: from.tool },
      };
    }),
  );
  const builds: number[] = [];
  let index = new ToolSearchIndex();
  for (let round = 0; round < 5; round++) {
    index = new ToolSearchIndex();
    const start = performance.now();
    index.sync(doubled);
    builds.push(performance.now() - start);
  }
  const latencies: number[] = [];
  for (let round = 0; round < 10; round++) {
    for (const task of tasks) {
      const start = performance.now();
      index.search(task.query, 8);
      latencies.push(performance.now() - start);
    }
  }
  // The one-field BM25 baseline on the same 1054 tools, timed the same way, for scale on a busy machine.
  const baselineBuilds: number[] = [];
  let baselineIndex = new MiniSearch<{ id: string; text: string }>({ fields: ['text'] });
  const baselineDocs = doubled.map(({ tool, origin: o }) => ({
    id: tool.name,
    text: oneField(o.backendId, { ...tool, name: o.original }),
  }));
  for (let round = 0; round < 5; round++) {
    baselineIndex = new MiniSearch<{ id: string; text: string }>({ fields: ['text'] });
    const start = performance.now();
    baselineIndex.addAll(baselineDocs);
    baselineBuilds.push(performance.now() - start);
  }
  const baselineLatencies: number[] = [];
  for (let round = 0; round < 10; round++) {
    for (const task of tasks) {
      const start = performance.now();
      baselineIndex.search(task.query);
      baselineLatencies.push(performance.now() - start);
    }
  }
  const sortedBaseline = [...baselineLatencies].sort((a, b) => a - b);
  const baselineBuildMs = [...baselineBuilds].sort((a, b) => a - b)[2]!;
  const sortedLatency = [...latencies].sort((a, b) => a - b);
  const sortedE2e = [...e2e].sort((a, b) => a - b);
  const buildMs = [...builds].sort((a, b) => a - b)[2]!;

  const rows = (name: string, s: SearchScores): string[] => [
    name,
    pct(s.recall1),
    pct(s.recall5),
    pct(s.recall10),
    s.mrr10.toFixed(3),
  ];
  printTable(
    `tool search on LiveMCPBench (${tasks.length} tasks, ${allTools.length} tools, through serve)`,
    ['ranker', 'R@1', 'R@5', 'R@10', 'MRR@10'],
    [
      rows('switchboard search_tools', ours),
      rows('BM25 baseline (one field)', baseline),
      [
        'ratio',
        `${(ours.recall1 / baseline.recall1).toFixed(2)}x`,
        `${(ours.recall5 / baseline.recall5).toFixed(2)}x`,
        `${(ours.recall10 / baseline.recall10).toFixed(2)}x`,
        `${(ours.mrr10 / baseline.mrr10).toFixed(2)}x`,
      ],
    ],
  );
  printTable(
    'tools/list tokens (o200k)',
    ['mode', 'tools', 'tokens'],
    [
      ['all', String(allTools.length), String(tokensAll)],
      ['search', String(searchTools.length), String(tokensSearch)],
      ['search / all', '', pct(tokensSearch / tokensAll)],
    ],
  );
  printTable(
    `tokens of a 5-result search_tools answer (o200k, ${tasks.length} tasks)`,
    ['detail', 'median', 'p95', 'max', 'target'],
    [
      ['compact (default)', ...[50, 95, 100].map((p) => String(percentile(compactTokens, p))), 'median <= 1000'],
      ['full', ...[50, 95, 100].map((p) => String(percentile(fullTokens, p))), ''],
      [
        'compact / full',
        ...[50, 95, 100].map((p) => pct(percentile(compactTokens, p) / percentile(fullTokens, p))),
        '',
      ],
    ],
  );
  printTable(
    `speed (index of ${doubled.length} tools, in process; search_tools through serve)`,
    ['what', 'p50', 'p95', 'target'],
    [
      ['index build (median of 5)', ms(buildMs), '', '< 200 ms'],
      ['  one-field baseline build', ms(baselineBuildMs), '', ''],
      ['search, in process', ms(percentile(sortedLatency, 50)), ms(percentile(sortedLatency, 95)), 'p95 < 5 ms'],
      ['  one-field baseline search', ms(percentile(sortedBaseline, 50)), ms(percentile(sortedBaseline, 95)), ''],
      ['search_tools via serve (HTTP)', ms(percentile(sortedE2e, 50)), ms(percentile(sortedE2e, 95)), ''],
    ],
  );
  await mkdir(join(ROOT, 'bench/results'), { recursive: true });
  await writeFile(
    RESULTS,
    `${JSON.stringify(
      {
        at: new Date().toISOString(),
        tasks: tasks.length,
        tools: allTools.length,
        ours,
        baseline,
        recall5Ratio: ours.recall5 / baseline.recall5,
        tokens: { all: tokensAll, search: tokensSearch, ratio: tokensSearch / tokensAll },
        answerTokens: {
          compact: {
            median: percentile(compactTokens, 50),
            p95: percentile(compactTokens, 95),
            max: compactTokens.at(-1),
          },
          full: { median: percentile(fullTokens, 50), p95: percentile(fullTokens, 95), max: fullTokens.at(-1) },
        },
        speed: {
          indexedTools: doubled.length,
          buildMs,
          baselineBuildMs,
          baselineSearchP50Ms: percentile(sortedBaseline, 50),
          baselineSearchP95Ms: percentile(sortedBaseline, 95),
          searchP50Ms: percentile(sortedLatency, 50),
          searchP95Ms: percentile(sortedLatency, 95),
          serveP50Ms: percentile(sortedE2e, 50),
          serveP95Ms: percentile(sortedE2e, 95),
        },
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nresults written to ${RESULTS}`);
}

try {
  await main();
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
}
