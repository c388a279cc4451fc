/**
 * A stdio client that stops reading while a backend floods it, through the
 * built `serve --stdio` (issue 25, containment): serve's stdout pipe fills,
 * its log and progress notifications wait in a bounded queue (the oldest
 * dropped), the stall is logged, serve's memory stays far below the flood,
 * and once the client reads again its answer arrives: notifications are lost,
 * never results.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, nodeServer } from '../../helpers/harness.js';
import { serveStdio } from '../../helpers/cli.js';
import { waitUntil } from '../../helpers/processes.js';

const rssMb = async (pid: number): Promise<number> =>
  Number(/VmRSS:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8').catch(() => ''))?.[1] ?? 0) / 1024;

describe('a stdio client that stops reading', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('keeps serve bounded, says so, and delivers the answer once the client reads again', async () => {
    const home = await mkdtemp(join(tmpdir(), 'switchboard-stdio-stall-'));
    cleanups.push(() => rm(home, { recursive: true, force: true }));
    const configPath = join(home, 'config.json');
    const config = { proxy: { clientStallMs: 2000 }, mcpServers: { noisy: nodeServer(fixture('flood.mjs')) } };
    await writeFile(configPath, JSON.stringify(config));
    const { command, args, env } = serveStdio(configPath, home);
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    cleanups.push(async () => {
      if (child.exitCode !== null) return;
      child.stdin.end();
      child.kill('SIGTERM');
      await once(child, 'exit');
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const lines = createInterface({ input: child.stdout });
    const answers = new Map<number, unknown>();
    lines.on('line', (line) => {
      const message = JSON.parse(line) as { id?: number; result?: unknown };
      if (message.id !== undefined && message.result !== undefined) answers.set(message.id, message.result);
    });
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'stalled', version: '1' } };
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
    await waitUntil(() => answers.has(1), { timeoutMs: 20_000 });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await waitUntil(() => JSON.stringify(answers.get(2) ?? '').includes('noisy__flood'), { timeoutMs: 20_000 });
    const rssBefore = await rssMb(child.pid!);

    // Stop reading, then flood 400 MB of logs (20,000 of 20 KB) and 20,000 progress notifications.
    lines.pause();
    child.stdout.pause();
    const flood = { name: 'noisy__flood', arguments: { count: 20_000, bytes: 20_000 }, _meta: { progressToken: 3 } };
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: flood });
    let peak = 0;
    await waitUntil(
      async () => {
        peak = Math.max(peak, await rssMb(child.pid!));
        return /the stdio client has read nothing for 2000 ms/.test(stderr);
      },
      { timeoutMs: 40_000, intervalMs: 100, description: 'serve logs the stalled stdio client' },
    );
    expect(peak - rssBefore).toBeLessThan(150);

    // Reading again, the client gets its answer.
    lines.resume();
    child.stdout.resume();
    await waitUntil(() => answers.has(3), { timeoutMs: 40_000, description: 'the flood call’s answer' });
    expect(JSON.stringify(answers.get(3))).toContain('flooded 20000');
  }, 120_000);
});
