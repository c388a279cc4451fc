/**
 * A stdio server with no `protocol` is probed for its era on its own pipe
 * (never a second copy): a 2026-07-28 server is spoken to in 2026, a 2025 one
 * in 2025. A server that ignores the probe, or exits on it, is remembered and
 * started without one from then on, so neither cost is paid twice.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING, fixture, nodeServer, startProxy, tempDir, type Harness } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';

const CONFIGURABLE = fixture('configurable.mjs');
const DEAF = fixture('probe-deaf.mjs');

async function traceLines(traceFile: string, prefix: string): Promise<string[]> {
  const text = await readFile(traceFile, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line.startsWith(prefix));
}

async function remembered(stateDir: string): Promise<string[]> {
  const text = await readFile(join(stateDir, 'backend-eras.json'), 'utf8').catch(() => '{"eras":{}}');
  const saved = JSON.parse(text) as { eras: Record<string, { probe: string }> };
  return Object.values(saved.eras)
    .map((verdict) => verdict.probe)
    .sort();
}

describe('the era of a stdio server', () => {
  let cleanup: (() => Promise<void>) | undefined;
  let proxy: Harness | undefined;
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    await cleanup?.();
  });

  async function start(stateDir: string, traceFile: string): Promise<Record<string, string | undefined>> {
    await proxy?.close();
    proxy = await startProxy(
      {
        // A 1 s request timeout makes the probe's own timeout 1 s.
        proxy: { requestTimeoutMs: 1000, reconnectInitialMs: 100 },
        mcpServers: {
          modern: nodeServer(CONFIGURABLE, [], { env: { FIXTURE_TRACE_FILE: traceFile } }),
          everything: nodeServer(EVERYTHING, ['stdio']),
          deaf: nodeServer(DEAF, [], { env: { FIXTURE_TRACE_FILE: traceFile } }),
          exits: nodeServer(DEAF, [], { env: { PROBE_EXIT: '1' } }),
        },
      },
      { deps: { stateDir } },
    );
    const current = proxy;
    await waitUntil(() => current.core.health().every((backend) => backend.status === 'up'), {
      description: 'every backend up (the one that exits on the probe on its second start)',
    });
    return Object.fromEntries(current.core.health().map((backend) => [backend.id, backend.era]));
  }

  it('is probed in place; a server that ignores or exits on the probe is remembered and not probed again', async () => {
    const dir = await tempDir();
    cleanup = dir.cleanup;
    const traceFile = join(dir.path, 'trace.log');
    const eras = { modern: 'modern', everything: 'legacy', deaf: 'legacy', exits: 'legacy' };

    expect(await start(dir.path, traceFile)).toEqual(eras);
    // One process per server: the probe went down its own pipe.
    expect(await traceLines(traceFile, 'start ')).toHaveLength(2);
    expect(await traceLines(traceFile, 'early ')).toEqual(['early server/discover']);
    // Only the costly ones: a prompt error (server-everything) or an answer costs nothing to ask again.
    await waitUntil(async () => (await remembered(dir.path)).length === 2, { description: 'both verdicts saved' });
    expect(await remembered(dir.path)).toEqual(['exited', 'ignored']);

    expect(await start(dir.path, traceFile)).toEqual(eras);
    expect(await traceLines(traceFile, 'early ')).toHaveLength(1);
  }, 60_000);
});
