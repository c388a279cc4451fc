/**
 * "Try it" as a real client over the headless bridge: a long call's progress
 * arrives as `tryProgress` events, Cancel sends `notifications/cancelled` to
 * the backend, and a tool's elicitation is answered from the UI (accept with
 * content, decline) for a 2025-era backend (server-everything, asks.mjs) and
 * a 2026-07-28 one (asks.mjs pinned); sampling is declined with a reason.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TryInputView, TryProgressView, TryResult } from '../../../../shared/model/views.js';
import { startHeadless, type Headless } from '../../../../electron/host/startHeadless.js';
import { connectBridge, type BridgeClient } from '../../../helpers/bridgeClient.js';
import { BIN } from '../../../helpers/cli.js';
import { EVERYTHING, fixture, nodeServer } from '../../../helpers/harness.js';
import { waitUntil } from '../../../helpers/processes.js';

const ASKS = fixture('asks.mjs');
const root = await mkdtemp(join(tmpdir(), 'sb-tryit-'));
process.env['HOME'] = root;
process.env['XDG_CONFIG_HOME'] = join(root, 'config');
process.env['XDG_STATE_HOME'] = join(root, 'state');
delete process.env['SWITCHBOARD_TOKEN'];

let running: Headless;
let client: BridgeClient;

beforeAll(async () => {
  const configPath = join(root, 'config.json');
  await writeFile(
    configPath,
    JSON.stringify({
      mcpServers: {
        everything: nodeServer(EVERYTHING),
        asks: nodeServer(ASKS),
        asks26: nodeServer(ASKS, [], { protocol: '2026-07-28' }),
      },
    }),
  );
  const uiDir = join(root, 'ui');
  await mkdir(uiDir, { recursive: true });
  await writeFile(join(uiDir, 'index.html'), '<!doctype html><title>ui</title>');
  running = await startHeadless({
    config: configPath,
    host: '127.0.0.1',
    port: 0,
    launcher: { command: process.execPath, args: [BIN] },
    uiDir,
  });
  await running.core.start();
  client = await connectBridge({ origin: `http://127.0.0.1:${running.port}`, token: running.token });
  await waitUntil(
    async () => {
      const list = await client.call('catalog.list');
      const names = list.ok ? list.result.map((entry) => entry.exposed) : [];
      return ['everything__trigger-elicitation-request', 'asks__hold', 'asks26__ask'].every((n) => names.includes(n));
    },
    { timeoutMs: 30_000 },
  );
}, 60_000);

afterAll(async () => {
  await client?.close();
  await running?.stop();
  await rm(root, { recursive: true, force: true });
});

const text = (result: TryResult): string =>
  result.content.map((block) => (block.type === 'text' ? String(block['text']) : '')).join('\n');

/** Resolves with the first waiting input request of `callId`. */
async function waitingInput(callId: string): Promise<TryInputView> {
  let found: TryInputView | undefined;
  await waitUntil(
    async () => {
      const inputs = await client.call('catalog.inputs');
      found = inputs.ok ? inputs.result.find((input) => input.callId === callId) : undefined;
      return found !== undefined;
    },
    { timeoutMs: 15_000 },
  );
  return found!;
}

async function callTool(name: string, args: Record<string, unknown>, callId: string): Promise<TryResult> {
  const outcome = await client.call('catalog.callTool', { name, arguments: args, callId });
  if (!outcome.ok) throw new Error(`${name}: ${outcome.error.message}`);
  return outcome.result;
}

describe('try it over the bridge', () => {
  it('forwards the backend progress of a long call as tryProgress events', async () => {
    const updates: TryProgressView[] = [];
    const stop = client.on('tryProgress', ({ calls }) => updates.push(...calls.filter((c) => c.callId === 'long-1')));
    const result = await callTool('everything__trigger-long-running-operation', { duration: 1.2, steps: 4 }, 'long-1');
    stop();
    expect(text(result)).toContain('Long running operation completed');
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.every((update) => update.total === 4 && update.progress >= 1 && update.progress <= 4)).toBe(true);
  });

  it.each([
    ['a 2025-era backend', 'asks'],
    ['a 2026-07-28 backend', 'asks26'],
  ])('cancels a call in flight on %s: the backend counts a cancellation', async (_label, server) => {
    const status = async () => JSON.parse(text(await callTool(`${server}__status`, {}, `status-${Math.random()}`)));
    const before = (await status()).cancelled as number;
    const pending = callTool(`${server}__hold`, { tag: `hold-${server}` }, `hold-${server}`);
    await waitUntil(async () => ((await status()).holding as string[]).includes(`hold-${server}`), {
      timeoutMs: 10_000,
    });
    expect(await client.call('catalog.cancelCall', { callId: `hold-${server}` })).toEqual({
      ok: true,
      result: { cancelled: true },
    });
    const result = await pending;
    expect(result).toMatchObject({ cancelled: true, isError: true });
    await waitUntil(async () => (await status()).cancelled > before, { timeoutMs: 10_000 });
    expect(await client.call('catalog.cancelCall', { callId: `hold-${server}` })).toEqual({
      ok: true,
      result: { cancelled: false },
    });
  });

  it('answers server-everything elicitation from the UI with the form content', async () => {
    const changed = new Promise<void>((resolve) => {
      const stop = client.on('tryInputsChanged', () => (stop(), resolve()));
    });
    const pending = callTool('everything__trigger-elicitation-request', {}, 'elicit-1');
    const input = await waitingInput('elicit-1');
    await changed;
    expect(input.mode).toBe('form');
    expect(input.message).toContain('Please provide inputs');
    expect(Object.keys((input.requestedSchema?.['properties'] as object) ?? {})).toContain('name');
    const answer = await client.call('catalog.answerInput', {
      id: input.id,
      action: 'accept',
      content: { name: 'Ada Lovelace', check: true, integer: 7 },
    });
    expect(answer.ok).toBe(true);
    const result = await pending;
    expect(text(result)).toContain('Name: Ada Lovelace');
    expect(text(result)).toContain('Favorite Integer: 7');
    expect((await client.call('catalog.inputs')).ok && (await client.call('catalog.inputs'))).toMatchObject({
      result: [],
    });
  });

  it.each([
    ['a 2025-era backend', 'asks'],
    ['a 2026-07-28 backend', 'asks26'],
  ])('relays accept and decline on %s', async (_label, server) => {
    const accepted = callTool(`${server}__ask`, { tag: 'one' }, `ask-${server}`);
    const first = await waitingInput(`ask-${server}`);
    expect(first.message).toContain('one');
    await client.call('catalog.answerInput', { id: first.id, action: 'accept', content: { answer: 'yes' } });
    expect(text(await accepted)).toBe('ask(one) -> accept:yes');

    const declined = callTool(`${server}__ask`, { tag: 'two' }, `decline-${server}`);
    const second = await waitingInput(`decline-${server}`);
    await client.call('catalog.answerInput', { id: second.id, action: 'decline' });
    expect(text(await declined)).toBe('ask(two) -> decline');
  });

  it('declines sampling, saying the UI has no model', async () => {
    const result = await callTool('everything__trigger-sampling-request', { prompt: 'hi' }, 'sample-1');
    expect(result.isError).toBe(true);
    expect(result.notes?.join(' ')).toContain('has no model');
  });

  it('refuses an answer to a request that is not waiting, naming the field', async () => {
    expect(await client.call('catalog.answerInput', { id: 'nope', action: 'accept' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_params', data: { field: 'id' } },
    });
  });
});
