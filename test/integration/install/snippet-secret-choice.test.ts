/**
 * Without an OS keychain (the test points D-Bus nowhere), a pasted snippet's
 * secret is never thrown away nor kept silently: `backends.parseSnippet`
 * asks, naming the variable, and writes nothing; then either choice is
 * honoured and the review says where the value went (never "keychain").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BridgeHarness } from '../../helpers/bridgeHarness.js';
import { MEMORY } from '../../helpers/harness.js';

const saved = { DBUS: process.env['DBUS_SESSION_BUS_ADDRESS'], DISPLAY: process.env['DISPLAY'] };
const TOKEN = `ghp_${'s'.repeat(30)}`;
const SNIPPET = `{ "mcpServers": {
  "gh": { "command": ${JSON.stringify(process.execPath)}, "args": [${JSON.stringify(MEMORY)}], "env": { "GITHUB_TOKEN": "${TOKEN}", "LEVEL": "debug" } },
  "web": { "url": "https://example.com/mcp", "headers": { "Authorization": "Bearer ${TOKEN}" } } } }`;

const harness = await BridgeHarness.create();
beforeAll(async () => {
  process.env['DBUS_SESSION_BUS_ADDRESS'] = 'unix:path=/nonexistent/bus';
  delete process.env['DISPLAY'];
  await harness.start();
}, 60_000);
afterAll(async () => {
  if (saved.DBUS !== undefined) process.env['DBUS_SESSION_BUS_ADDRESS'] = saved.DBUS;
  else delete process.env['DBUS_SESSION_BUS_ADDRESS'];
  if (saved.DISPLAY !== undefined) process.env['DISPLAY'] = saved.DISPLAY;
  await harness.stop();
});

describe('a pasted secret without a keychain', () => {
  it('asks where it goes, naming each variable with its server', async () => {
    const client = await harness.bridge();
    const info = await client.call('app.info');
    expect(info.ok && info.result.keychain.available).toBe(false);
    const asked = await client.call('backends.parseSnippet', { text: SNIPPET });
    expect(asked).toMatchObject({
      ok: false,
      error: {
        code: 'input_invalid',
        data: {
          field: 'secretStorage',
          variables: [
            { field: 'gh: env.GITHUB_TOKEN', variable: 'GITHUB_TOKEN', set: false },
            { field: 'web: headers.Authorization', variable: 'WEB_AUTHORIZATION', set: false },
          ],
        },
      },
    });
    expect(JSON.stringify(asked)).not.toContain(TOKEN);
  });

  it('an environment variable: the entry refers to it and the value is nowhere', async () => {
    const client = await harness.bridge();
    const parsed = await client.call('backends.parseSnippet', { text: SNIPPET, secretStorage: 'reference' });
    if (!parsed.ok) throw new Error(parsed.error.message);
    const [gh, web] = parsed.result.servers;
    expect(gh).toMatchObject({
      entry: { env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', LEVEL: 'debug' } },
      secrets: [{ field: 'env.GITHUB_TOKEN', reference: '${GITHUB_TOKEN}', place: 'environment' }],
    });
    expect(web).toMatchObject({
      entry: { headers: { Authorization: 'Bearer ${WEB_AUTHORIZATION}' } },
      secrets: [{ field: 'headers.Authorization', place: 'environment' }],
    });
    expect(JSON.stringify(parsed)).not.toContain(TOKEN);
    expect(parsed.result.problems.join('\n')).toContain('GITHUB_TOKEN');
  });

  it('config.json, as chosen: the value never crosses to the UI, and adding saves it there', async () => {
    const client = await harness.bridge();
    const parsed = await client.call('backends.parseSnippet', { text: SNIPPET, secretStorage: 'config' });
    if (!parsed.ok) throw new Error(parsed.error.message);
    const [gh] = parsed.result.servers;
    expect(gh?.secrets).toEqual([
      { field: 'env.GITHUB_TOKEN', reference: 'config.json (plain text)', place: 'config' },
    ]);
    expect(gh?.entry['env']).toEqual({ GITHUB_TOKEN: '(kept for config.json)', LEVEL: 'debug' });
    const added = await client.call('backends.add', { id: gh!.id, entry: gh!.entry });
    if (!added.ok) throw new Error(added.error.message);
    expect((await harness.savedServers())[gh!.id]?.['env']).toEqual({ GITHUB_TOKEN: TOKEN, LEVEL: 'debug' });
  }, 60_000);
});
