/**
 * Runs the official conformance suite's CLI (npm @modelcontextprotocol/conformance, pinned) against
 * one server URL and reads its verdicts: the CLI writes one `server-<scenario>-<time>/checks.json`
 * per scenario into an output folder, each a list of checks with a status.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** Extension scenarios run this many at a time. */
const SCENARIO_CONCURRENCY = 4;

const CLI = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');

/** A scenario's verdict: any FAILURE fails it; only SKIPPED checks skip it; else it passes. */
export type Verdict = 'pass' | 'fail' | 'skip';

export interface ScenarioResult {
  verdict: Verdict;
  /** Checks by status (SUCCESS, FAILURE, WARNING, SKIPPED, INFO). */
  counts: Record<string, number>;
  /** The failing checks' ids and messages, for the report. */
  failures: string[];
}

/** Spec versions the suite's server scenarios are run at; extension scenarios run apart. */
export const SPEC_VERSIONS = ['2025-11-25', '2026-07-28'] as const;
export type SpecVersion = (typeof SPEC_VERSIONS)[number];

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

/** Runs the CLI with `args`; resolves with its output, or rejects after `timeoutMs` (killing it). */
async function runCli(args: string[], timeoutMs: number, signal?: AbortSignal): Promise<string> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000)));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-200_000)));
  const kill = (): boolean => child.kill('SIGKILL');
  const timer = setTimeout(kill, timeoutMs);
  signal?.addEventListener('abort', kill, { once: true });
  try {
    const [code, killedBy] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    if (killedBy) throw new Error(`conformance ${args.join(' ')}: killed (${killedBy}) after ${timeoutMs} ms`);
    if (code !== 0 && code !== 1)
      throw new Error(`conformance ${args.join(' ')} exited ${code}:\n${output.slice(-2000)}`);
    return output;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', kill);
  }
}

/** The server scenarios the suite lists, with the versions (or `extension`) each applies to. */
export async function listServerScenarios(signal?: AbortSignal): Promise<Map<string, string[]>> {
  const output = await runCli(['list'], 30_000, signal);
  const server = output.split(/Client scenarios/)[0] ?? '';
  const scenarios = new Map<string, string[]>();
  for (const [, name, tags] of server.matchAll(/^\s*- (\S+) \[([^\]]*)\]/gm)) scenarios.set(name!, tags!.split(','));
  return scenarios;
}

const RESULT_DIR = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/;

/** Reads every scenario's checks.json in `dir`. */
async function readResults(dir: string): Promise<Map<string, ScenarioResult>> {
  const results = new Map<string, ScenarioResult>();
  for (const entry of await readdir(dir).catch(() => [] as string[])) {
    const scenario = RESULT_DIR.exec(entry)?.[1];
    if (!scenario) continue;
    const checks = JSON.parse(await readFile(join(dir, entry, 'checks.json'), 'utf8')) as Check[];
    results.set(scenario, judge(checks));
  }
  return results;
}

/** A scenario's verdict from its checks. */
export function judge(checks: Check[]): ScenarioResult {
  const counts: Record<string, number> = {};
  for (const check of checks) counts[check.status] = (counts[check.status] ?? 0) + 1;
  const failures = checks
    .filter((check) => check.status === 'FAILURE')
    .map((check) => `${check.id}: ${(check.errorMessage ?? '').slice(0, 300)}`);
  const scored = checks.filter((check) => check.status !== 'INFO');
  const verdict: Verdict =
    failures.length > 0
      ? 'fail'
      : scored.length > 0 && scored.every((check) => check.status === 'SKIPPED')
        ? 'skip'
        : 'pass';
  return { verdict, counts, failures };
}

export interface RunOptions {
  url: string;
  /** `--spec-version <v>`: the version the scenarios are run at. */
  specVersion?: SpecVersion;
  /** The scenarios to run one by one; without them, the whole suite (`--suite all`). */
  scenarios?: string[];
  signal?: AbortSignal;
}

/**
 * Runs the suite and returns each scenario's result. A scenario the CLI was asked for but wrote
 * no result for (it crashed or timed out) fails, saying so.
 */
export async function runSuite(options: RunOptions): Promise<Map<string, ScenarioResult>> {
  const dir = await mkdtemp(join(tmpdir(), 'switchboard-conformance-'));
  try {
    const common = ['server', '--url', options.url, '--output-dir', dir, '--timeout', '20000'];
    if (options.specVersion) common.push('--spec-version', options.specVersion);
    if (!options.scenarios) await runCli([...common, '--suite', 'all'], 240_000, options.signal);
    // One CLI process per scenario, a few at a time: they mostly wait on the server.
    const queue = [...(options.scenarios ?? [])];
    const worker = async (): Promise<void> => {
      for (let scenario = queue.shift(); scenario; scenario = queue.shift()) {
        await runCli([...common, '--scenario', scenario], 60_000, options.signal).catch((error: Error) => error);
      }
    };
    await Promise.all(Array.from({ length: SCENARIO_CONCURRENCY }, worker));
    const results = await readResults(dir);
    for (const scenario of options.scenarios ?? []) {
      if (!results.has(scenario)) {
        results.set(scenario, {
          verdict: 'fail',
          counts: {},
          failures: ['the suite wrote no result (crash or timeout)'],
        });
      }
    }
    return results;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
