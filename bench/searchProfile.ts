// Profiling aid for the search index (not part of `npm run bench`): builds the index over the
// LiveMCPBench catalog twice (1054 tools) and runs every labelled task's query, so
// `node --cpu-prof --import tsx bench/searchProfile.ts [build|query] [rounds]` shows where time goes.
import { performance } from 'node:perf_hooks';
import { ToolSearchIndex } from '../electron/core/frontend/index.js';
import { loadServers, loadTasks } from './searchScoring.js';

const what = process.argv[2] ?? 'both';
const rounds = Number(process.argv[3] ?? 20);
const servers = loadServers();
const tools = [1, 2].flatMap((copy) =>
  Object.entries(servers).flatMap(([server, entry]) =>
    entry.tools.map((tool) => {
      const backendId = copy === 1 ? server : `${server}-2`;
      return {
        tool: { ...tool, name: `${backendId}__${tool.name}`.slice(0, 64) },
        origin: { backendId, original: tool.name },
      };
    }),
  ),
);
const tasks = loadTasks();
const builds: number[] = [];
let index = new ToolSearchIndex();
if (what !== 'query') {
  for (let i = 0; i < rounds; i++) {
    index = new ToolSearchIndex();
    const start = performance.now();
    index.sync(tools);
    builds.push(performance.now() - start);
  }
} else index.sync(tools);
const latencies: number[] = [];
if (what !== 'build') {
  for (let i = 0; i < rounds; i++)
    for (const task of tasks) {
      const start = performance.now();
      index.search(task.query, 8);
      latencies.push(performance.now() - start);
    }
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const p95 = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)] ?? NaN;
console.log(
  JSON.stringify({
    tools: tools.length,
    buildMedianMs: median(builds),
    searchP50Ms: median(latencies),
    searchP95Ms: p95(latencies),
  }),
);
