/**
 * Scoring of tool search on the LiveMCPBench tasks (../shared/datasets/livemcpbench):
 * recall@k of a task's label groups (a group counts as found when any of its
 * tools is in the top k), averaged over tasks, and MRR@10 of the first result
 * that answers any group. Also the plain BM25 baseline the issue compares
 * against: minisearch with its defaults over one text field.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import type { Tool } from '@modelcontextprotocol/server';

/** The dataset folder. */
export const DATASET_DIR = join(import.meta.dirname, '..', '..', 'shared', 'datasets', 'livemcpbench');

/** One labelled task. */
export interface Task {
  id: string;
  query: string;
  expected: { server: string; tool: string; group: number }[];
}

/** One server of the catalog. */
export interface DatasetServer {
  title: string;
  tools: Tool[];
}

/** The catalog's servers by ID. */
export function loadServers(dir = DATASET_DIR): Record<string, DatasetServer> {
  return (JSON.parse(readFileSync(join(dir, 'tools.json'), 'utf8')) as { servers: Record<string, DatasetServer> })
    .servers;
}

/** The labelled tasks. */
export function loadTasks(dir = DATASET_DIR): Task[] {
  return readFileSync(join(dir, 'queries-dev.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Task);
}

/** A ranked list of (server, tool) for a query. */
export type Ranker = (query: string) => { server: string; tool: string }[];

/** Recall@1/5/10 and MRR@10 of a ranker over the tasks. */
export interface SearchScores {
  recall1: number;
  recall5: number;
  recall10: number;
  mrr10: number;
}

/** Scores a ranker on the tasks. */
export function score(tasks: Task[], rank: Ranker): SearchScores {
  const sums = { recall1: 0, recall5: 0, recall10: 0, mrr10: 0 };
  for (const task of tasks) {
    const groupOf = new Map(task.expected.map((e) => [`${e.server}/${e.tool}`, e.group]));
    const groups = new Set(task.expected.map((e) => e.group)).size;
    const ranked = rank(task.query).slice(0, 10);
    const found = (k: number): number =>
      new Set(
        ranked
          .slice(0, k)
          .map((r) => groupOf.get(`${r.server}/${r.tool}`))
          .filter((g) => g !== undefined),
      ).size / groups;
    sums.recall1 += found(1);
    sums.recall5 += found(5);
    sums.recall10 += found(10);
    const first = ranked.findIndex((r) => groupOf.has(`${r.server}/${r.tool}`));
    sums.mrr10 += first < 0 ? 0 : 1 / (first + 1);
  }
  const n = tasks.length;
  return {
    recall1: sums.recall1 / n,
    recall5: sums.recall5 / n,
    recall10: sums.recall10 / n,
    mrr10: sums.mrr10 / n,
  };
}

/** The baseline's one text field: server, split tool name, description, parameter names and descriptions. */
export function oneField(server: string, tool: Tool): string {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
  const params = Object.entries(properties).map(([name, p]) => `${name} ${p?.description ?? ''}`);
  return [server, tool.name.split(/[_\-.]/).join(' '), tool.description ?? '', ...params].join(' ');
}

/** The baseline: BM25 (minisearch defaults) over one field of server, split tool name, description and parameters. */
export function baselineRanker(servers: Record<string, DatasetServer>): Ranker {
  const mini = new MiniSearch<{ id: number; text: string; server: string; tool: string }>({
    fields: ['text'],
    storeFields: ['server', 'tool'],
  });
  let id = 0;
  for (const [server, entry] of Object.entries(servers)) {
    for (const tool of entry.tools) {
      mini.add({ id: id++, text: oneField(server, tool), server, tool: tool.name });
    }
  }
  return (query) =>
    mini
      .search(query)
      .slice(0, 10)
      .map((r) => ({ server: r['server'] as string, tool: r['tool'] as string }));
}
