/**
 * Cancelling a contract call over the real bridge: a "try it" tool call the
 * UI cancels (its AbortSignal) settles at once as `cancelled`, and the
 * backend sees notifications/cancelled (the slow fixture counts the calls it
 * saw cancelled); a call in flight when its WebSocket closes is cancelled
 * too. The renderer's own WebSocket client (renderer/src/bridge/wsClient.ts)
 * is used, as the UI uses it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import type { CoreClient } from '../../../shared/contract.js';
import { createWsClient } from '../../../renderer/src/bridge/wsClient.js';
import { BridgeHarness } from '../../helpers/bridgeHarness.js';
import { fixture, nodeServer } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';

const harness = await BridgeHarness.create();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

/** The renderer's client over `ws`, authenticated with the main token (a browser sends the session cookie). */
function rendererClient() {
  const token = harness.headless.token;
  class Authenticated extends NodeWebSocket {
    constructor(url: string) {
      super(url, { headers: { Authorization: `Bearer ${token}` }, origin: harness.origin });
    }
  }
  return createWsClient(`${harness.origin.replace(/^http/, 'ws')}/bridge`, {
    WebSocketImpl: Authenticated as unknown as typeof WebSocket,
  });
}

/** Whether process `pid` runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The text a tool of the slow fixture answers. */
async function toolText(client: CoreClient, name: string): Promise<string> {
  const outcome = await client.call('catalog.callTool', { name, arguments: {} });
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error));
  return (outcome.result.content[0] as { text: string }).text;
}

describe('cancelling a call over the bridge', () => {
  it('stops the backend call: the call settles as cancelled and the backend sees notifications/cancelled', async () => {
    const client = rendererClient();
    try {
      const added = await client.call('backends.add', { id: 'slow', entry: nodeServer(fixture('slow.mjs')) });
      if (!added.ok) throw new Error(JSON.stringify(added.error));
      // A server added at run time is quarantined until the user approves it.
      const approved = await client.call('reviews.approveServer', { id: 'slow' });
      if (!approved.ok) throw new Error(JSON.stringify(approved.error));
      await waitUntil(
        async () => {
          const catalog = await client.call('catalog.list');
          return catalog.ok && catalog.result.some((entry) => entry.exposed === 'slow__hang');
        },
        { timeoutMs: 20_000 },
      );
      expect(await toolText(client, 'slow__cancelled_count')).toBe('0');

      const controller = new AbortController();
      const hanging = client.call(
        'catalog.callTool',
        { name: 'slow__hang', arguments: {} },
        { signal: controller.signal },
      );
      // Cancel once the backend is running the call (its concurrency probe has seen it).
      await waitUntil(async () => (await toolText(client, 'slow__max_concurrency')) === '1');
      controller.abort();
      expect(await hanging).toMatchObject({ ok: false, error: { code: 'cancelled' } });
      await waitUntil(async () => (await toolText(client, 'slow__cancelled_count')) === '1');

      // The log records it as cancelled, not as an error.
      await waitUntil(async () => {
        const log = await client.call('log.query', { backend: 'slow', kind: 'tools/call' });
        return log.ok && log.result.some((entry) => entry.item === 'hang' && entry.outcome === 'cancelled');
      });
    } finally {
      client.close();
    }
  }, 60_000);

  it('cancels the calls in flight when the WebSocket closes', async () => {
    const client = rendererClient();
    const watcher = rendererClient();
    try {
      await waitUntil(async () => client.connectionState() === 'open');
      const before = Number(await toolText(watcher, 'slow__cancelled_count'));
      const hanging = [1, 2].map(() => client.call('catalog.callTool', { name: 'slow__hang', arguments: {} }));
      // The first test ran one at a time: two running at once are these two.
      await waitUntil(async () => (await toolText(watcher, 'slow__max_concurrency')) === '2');
      client.close();
      for (const outcome of await Promise.all(hanging)) {
        expect(outcome).toMatchObject({ ok: false, error: { code: 'disconnected' } });
      }
      await waitUntil(async () => Number(await toolText(watcher, 'slow__cancelled_count')) === before + 2);
    } finally {
      client.close();
      watcher.close();
    }
  }, 60_000);

  it('stops a backends.check: the server it started is stopped at once, not at the time limit', async () => {
    const client = rendererClient();
    const pidFile = join(harness.root, 'silent.pid');
    try {
      // A server that starts and never answers: without cancelling, the check would wait 30 s for it.
      const entry = {
        command: process.execPath,
        args: [
          '-e',
          'require("fs").writeFileSync(process.env.PID_FILE, String(process.pid)); setInterval(() => {}, 1000)',
        ],
        env: { PID_FILE: pidFile },
      };
      const controller = new AbortController();
      const checking = client.call('backends.check', { id: 'silent', entry }, { signal: controller.signal });
      let pid = 0;
      await waitUntil(async () => (pid = Number(await readFile(pidFile, 'utf8').catch(() => '0'))) > 0, {
        timeoutMs: 15_000,
      });
      expect(alive(pid)).toBe(true);
      controller.abort();
      expect(await checking).toMatchObject({ ok: false, error: { code: 'cancelled' } });
      await waitUntil(() => !alive(pid), { timeoutMs: 10_000 });
    } finally {
      client.close();
    }
  }, 60_000);

  it('answers a bad call as data naming the field', async () => {
    const client = await harness.bridge();
    const outcome = await (client.call as unknown as (m: string, p: unknown) => Promise<unknown>)('policy.setBackend', {
      backendId: 'mem',
      profile: 7,
    });
    expect(outcome).toEqual({
      ok: false,
      error: {
        code: 'invalid_params',
        message: 'policy.setBackend: profile: expected string, received number',
        data: { path: 'profile', issues: [{ path: 'profile', message: 'expected string, received number' }] },
      },
    });
  });
});
