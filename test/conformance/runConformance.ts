/**
 * Runs the official MCP conformance suite (server scenarios, both spec versions, and the
 * extension scenarios) against our conformance server alone and through a real `serve`, prints
 * one comparison table and exits non-zero when a scenario passes direct but fails proxied
 * (unless byDesign.json excuses it). Needs Node >= 22 (the suite uses fs.globSync) and a build
 * (`npm run build:serve`).
 *   node --import tsx test/conformance/runConformance.ts [--out table.json] [--md table.md]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../helpers/harness.js';
import { listServerScenarios, runSuite, SPEC_VERSIONS, type ScenarioResult, type SpecVersion } from './suite.js';
import { compare, EXTENSION, renderMarkdown, totals, type ByDesignEntry, type Row } from './table.js';
import { startDirect, startProxied, type Target } from './targets.js';

/** The whole run's limit: the suite takes well under a minute per target here. */
const RUN_TIMEOUT_MS = 10 * 60_000;

interface TargetResults {
  byVersion: Map<string, Map<string, ScenarioResult>>;
}

function requireNode22(): void {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) {
    throw new Error(
      `the conformance suite needs Node >= 22 (it uses fs.globSync); this is Node ${process.versions.node}`,
    );
  }
}

/** Every version's scenarios, then the extension ones, against one target (left running). */
async function runTarget(target: Target, extensions: string[], signal: AbortSignal): Promise<TargetResults> {
  const byVersion = new Map<string, Map<string, ScenarioResult>>();
  for (const version of SPEC_VERSIONS) {
    byVersion.set(version, await runSuite({ url: target.url, specVersion: version, signal }));
  }
  byVersion.set(EXTENSION, await runSuite({ url: target.url, scenarios: extensions, signal }));
  return { byVersion };
}

/**
 * Runs each regression once more through Switchboard alone; one that passes then is marked flaky
 * (reported, not failed): the suite's timings on a loaded machine, or a known SDK race such as
 * the last progress notification over stdio (SDK issue 2580).
 */
async function retryRegressions(rows: Row[], proxied: Target, signal: AbortSignal): Promise<void> {
  for (const row of rows.filter((candidate) => candidate.regression)) {
    const again = await runSuite({
      url: proxied.url,
      scenarios: [row.scenario],
      specVersion: row.version as SpecVersion,
      signal,
    });
    if (again.get(row.scenario)?.verdict === 'pass') {
      row.regression = false;
      row.flaky = true;
    }
  }
}

async function main(): Promise<number> {
  requireNode22();
  const { values } = parseArgs({ options: { out: { type: 'string' }, md: { type: 'string' } } });
  const started = Date.now();
  const signal = AbortSignal.timeout(RUN_TIMEOUT_MS);
  const byDesign = (
    JSON.parse(await readFile(join(ROOT, 'test/conformance/byDesign.json'), 'utf8')) as { entries: ByDesignEntry[] }
  ).entries;
  const scenarios = await listServerScenarios(signal);
  const extensions = [...scenarios].filter(([, tags]) => tags.includes(EXTENSION)).map(([name]) => name);
  const targets = await Promise.allSettled([startDirect(), startProxied()]);
  const [directTarget, proxiedTarget] = targets.map((started) =>
    started.status === 'fulfilled' ? started.value : undefined,
  );
  let rows: Row[];
  try {
    const failed = targets.find((started) => started.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    // Both targets at once: the suite mostly waits on the servers, so this halves the wall time.
    const [direct, proxied] = await Promise.all([
      runTarget(directTarget!, extensions, signal),
      runTarget(proxiedTarget!, extensions, signal),
    ]);
    rows = [...SPEC_VERSIONS, EXTENSION].flatMap((version) =>
      compare(version, direct.byVersion.get(version)!, proxied.byVersion.get(version)!, byDesign),
    );
    await retryRegressions(rows, proxiedTarget!, signal);
  } finally {
    await Promise.allSettled([directTarget?.stop(), proxiedTarget?.stop()]);
  }
  const runtimeMs = Date.now() - started;
  const markdown = renderMarkdown(rows, runtimeMs);
  process.stdout.write(markdown);
  if (values.md) await writeFile(values.md, markdown);
  if (values.out) {
    await writeFile(values.out, `${JSON.stringify({ runtimeMs, totals: totals(rows), rows }, null, 2)}\n`);
  }
  const regressions = rows.filter((row) => row.regression);
  if (regressions.length > 0) {
    process.stderr.write(
      `conformance: ${regressions.length} scenario(s) pass against the server alone but fail through Switchboard: ${regressions
        .map((row) => `${row.scenario} (${row.version})`)
        .join(', ')}\n`,
    );
    return 1;
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
