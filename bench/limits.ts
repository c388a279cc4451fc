/**
 * What rate limits add to a call: the same tool of one stdio server called
 * through the core's router with `policy.limits` off and with two rules that
 * apply to every call (one per caller, one per tool; points so high nothing
 * is refused), interleaved in one run; and the limit check alone, many times,
 * in microseconds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { silentLogger } from '../electron/core/api/index.js';
import { parseConfig } from '../electron/core/platform/index.js';
import { SwitchboardCore } from '../electron/core/switchboard/index.js';
import { interleaved, printTable, summarize } from './lib.js';

const ROOT = resolve(import.meta.dirname, '..');
const CONFIGURABLE = join(ROOT, 'test/fixtures/servers/configurable.mjs');
const CALLS = 2000;
const BLOCK = 50;
const CHECKS = 20_000;
const TOOL = { name: 'bench__create_issue', arguments: {} };
const OPTIONS = { client: 'local' };
const LIMITS = [
  { match: {}, rate: { points: 1_000_000_000, perSeconds: 60 } },
  { match: {}, server: 'bench', tool: 'create_issue', rate: { points: 1_000_000_000, perSeconds: 60 } },
];

async function startCore(limits: unknown[] | undefined, dir: string): Promise<SwitchboardCore> {
  const raw = {
    mcpServers: { bench: { command: process.execPath, args: [CONFIGURABLE], env: { FIXTURE_TOOLS: 'create_issue' } } },
    ...(limits ? { policy: { limits } } : {}),
  };
  const { config, problems } = parseConfig(raw);
  if (!config) throw new Error(JSON.stringify(problems));
  const core = new SwitchboardCore(config, {
    environment: process.env,
    logger: silentLogger,
    clientInfo: { name: 'bench', version: '0' },
    stateDir: dir,
  });
  await core.start();
  return core;
}

/** One call as the frontend makes it: the limit check, then the routed call. */
async function call(core: SwitchboardCore): Promise<void> {
  await core.router.limitTool(TOOL, OPTIONS);
  await core.router.callTool(TOOL, OPTIONS);
}

const dir = mkdtempSync(join(tmpdir(), 'bench-limits-'));
const off = await startCore(undefined, join(dir, 'off'));
const on = await startCore(LIMITS, join(dir, 'on'));
try {
  for (let i = 0; i < 100; i++) await Promise.all([call(off), call(on)]);
  const [withoutLimits, withLimits] = await interleaved(
    CALLS,
    BLOCK,
    () => call(off),
    () => call(on),
  );
  const checks: number[] = [];
  for (let i = 0; i < CHECKS; i++) {
    const at = performance.now();
    await on.router.limitTool(TOOL, OPTIONS);
    checks.push((performance.now() - at) * 1000);
  }
  const check = summarize(checks);
  const ms = (value: number) => value.toFixed(3);
  printTable(
    `rate limits: a tools/call through the router, ${CALLS} each, interleaved (ms)`,
    ['', 'p50', 'p99', 'mean'],
    [
      ['limits off', ms(withoutLimits.p50), ms(withoutLimits.p99), ms(withoutLimits.mean)],
      ['2 rules applying', ms(withLimits.p50), ms(withLimits.p99), ms(withLimits.mean)],
      [
        'added',
        ms(withLimits.p50 - withoutLimits.p50),
        ms(withLimits.p99 - withoutLimits.p99),
        ms(withLimits.mean - withoutLimits.mean),
      ],
    ],
  );
  printTable(
    `the limit check alone (2 rules applying), ${CHECKS} checks (µs)`,
    ['', 'p50', 'p99', 'mean'],
    [['limitTool', check.p50.toFixed(1), check.p99.toFixed(1), check.mean.toFixed(1)]],
  );
} finally {
  await Promise.all([off.dispose(), on.dispose()]);
  rmSync(dir, { recursive: true, force: true });
}
