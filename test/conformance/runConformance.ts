/**
 * Runs the official MCP conformance suite (server scenarios, both spec versions, and the
 * extension scenarios) against our conformance server alone and through a real `serve` twice
 * (backend in its own era; backend pinned to 2025, through the era bridge), all at once, prints
 * one comparison table and exits non-zero when a scenario passes direct but fails through either
 * (unless byDesign.json excuses it for that target). Needs Node >= 22 (the suite uses fs.globSync) and a build
 * (`npm run build:serve`).
 *   node --import tsx test/conformance/runConformance.ts [--out table.json] [--md table.md]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../helpers/harness.js';
import { listServerScenarios, runSuite, SPEC_VERSIONS, type ScenarioResult, type SpecVersion } from './suite.js';
import {
  compare,
  EXTENSION,
  PROXIED_TARGETS,
  renderMarkdown,
  totals,
  type ByDesignEntry,
  type ProxiedTargetName,
  type Row,
} from './table.js';
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
 * Runs each regression once more on its target alone; one that passes then is marked flaky
 * (reported, not failed): the suite's timings on a loaded machine, or a known SDK race such as
 * the last progress notification over stdio (SDK issue 2580).
 */
async function retryRegressions(
  rows: Row[],
  targets: Record<ProxiedTargetName, Target>,
  signal: AbortSignal,
): Promise<void> {
  for (const row of rows) {
    for (const name of PROXIED_TARGETS) {
      const cell = row.targets[name];
      if (!cell.regression) continue;
      const again = await runSuite({
        url: targets[name].url,
        scenarios: [row.scenario],
        specVersion: row.version as SpecVersion,
        signal,
      });
      if (again.get(row.scenario)?.verdict === 'pass') {
        cell.regression = false;
        cell.flaky = true;
      }
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
  const starting = await Promise.allSettled([startDirect(), ...PROXIED_TARGETS.map((name) => startProxied(name))]);
  const running = starting.flatMap((one) => (one.status === 'fulfilled' ? [one.value] : []));
  let rows: Row[];
  try {
    const failed = starting.find((one) => one.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const [directTarget, ...proxiedTargets] = running as [Target, ...Target[]];
    const byName = Object.fromEntries(proxiedTargets.map((target) => [target.name, target])) as Record<
      ProxiedTargetName,
      Target
    >;
    // Every target at once: the suite mostly waits on the servers, so this divides the wall time.
    const [direct, ...proxied] = await Promise.all(
      [directTarget, ...proxiedTargets].map((target) => runTarget(target, extensions, signal)),
    );
    const proxiedAt = (version: string): Record<ProxiedTargetName, Map<string, ScenarioResult>> =>
      Object.fromEntries(
        proxiedTargets.map((target, index) => [target.name, proxied[index]!.byVersion.get(version)!]),
      ) as Record<ProxiedTargetName, Map<string, ScenarioResult>>;
    rows = [...SPEC_VERSIONS, EXTENSION].flatMap((version) =>
      compare(version, direct!.byVersion.get(version)!, proxiedAt(version), byDesign),
    );
    await retryRegressions(rows, byName, signal);
  } finally {
    await Promise.allSettled(running.map((target) => target.stop()));
  }
  const runtimeMs = Date.now() - started;
  const markdown = renderMarkdown(rows, runtimeMs);
  process.stdout.write(markdown);
  if (values.md) await writeFile(values.md, markdown);
  if (values.out) {
    await writeFile(values.out, `${JSON.stringify({ runtimeMs, totals: totals(rows), rows }, null, 2)}\n`);
  }
  const regressions = rows.flatMap((row) =>
    PROXIED_TARGETS.filter((name) => row.targets[name].regression).map(
      (name) => `${row.scenario} (${row.version}, ${name})`,
    ),
  );
  if (regressions.length > 0) {
    process.stderr.write(
      `conformance: ${regressions.length} scenario(s) pass against the server alone but fail through Switchboard: ${regressions.join(', ')}\n`,
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
