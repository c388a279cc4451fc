/**
 * A stdio server with no `protocol` is probed for its era once per launch
 * line: a 2026-07-28 server is then spoken to in 2026, a 2025 one in 2025, and
 * the next start skips the probe (the SDK probes on a disposable sibling, so
 * a probe starts the server twice).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING, fixture, nodeServer, startProxy, tempDir } from '../../helpers/harness.js';

const CONFIGURABLE = fixture('configurable.mjs');

async function starts(traceFile: string): Promise<number> {
  const text = await readFile(traceFile, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line.startsWith('start ')).length;
}

async function run(stateDir: string, traceFile: string): Promise<Record<string, string | undefined>> {
  const proxy = await startProxy(
    {
      mcpServers: {
        modern: nodeServer(CONFIGURABLE, [], { env: { FIXTURE_TRACE_FILE: traceFile } }),
        everything: nodeServer(EVERYTHING, ['stdio']),
      },
    },
    { deps: { stateDir } },
  );
  try {
    return Object.fromEntries(proxy.core.health().map((backend) => [backend.id, backend.era]));
  } finally {
    await proxy.close();
  }
}

describe('the era of a stdio server', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(() => cleanup?.());

  it('is probed on its first start only, and each server is spoken to in its own era', async () => {
    const dir = await tempDir();
    cleanup = dir.cleanup;
    const stateDir = dir.path;
    const traceFile = join(stateDir, 'trace.log');

    expect(await run(stateDir, traceFile)).toMatchObject({ modern: 'modern', everything: 'legacy' });
    // The probe's sibling and the server itself.
    expect(await starts(traceFile)).toBe(2);
    const saved = JSON.parse(await readFile(join(stateDir, 'backend-eras.json'), 'utf8')) as {
      eras: Record<string, { kind: string }>;
    };
    expect(
      Object.values(saved.eras)
        .map((verdict) => verdict.kind)
        .sort(),
    ).toEqual(['legacy', 'modern']);

    expect(await run(stateDir, traceFile)).toMatchObject({ modern: 'modern', everything: 'legacy' });
    // Started once more: no probe this time.
    expect(await starts(traceFile)).toBe(3);
  });
});
