/**
 * The headless bridge's front door, end to end (see BridgeHarness): the
 * one-time login link and the UI page, who the WebSocket refuses, and the
 * login link `mcp-switchboard serve` prints.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBridge, login } from '../../helpers/bridgeClient.js';
import { BridgeHarness, UI_INDEX } from '../../helpers/bridgeHarness.js';
import { BIN } from '../../helpers/cli.js';
import { waitUntil } from '../../helpers/processes.js';

const harness = await BridgeHarness.create();
beforeAll(() => harness.start());
afterAll(() => harness.stop());

describe('login and the UI page', () => {
  it('exchanges the one-time login link for a session cookie once, then refuses it', async () => {
    const url = harness.headless.bridge!.loginUrl();
    expect(url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${harness.headless.port}/ui\\?login=[A-Za-z0-9_-]{40,}$`));
    const cookie = await login(url);
    expect(cookie).toMatch(new RegExp(`^sb_ui_${harness.headless.port}=`));
    await expect(login(url)).rejects.toMatchObject({ status: 403 });
    const page = await fetch(`${harness.origin}/`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toBe(UI_INDEX);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${harness.headless.port}`);
    expect(csp).not.toContain('unsafe-inline');
    const client = await harness.bridge({ cookie });
    expect(await client.call('app.info')).toMatchObject({ ok: true, result: { host: 'headless' } });
  });

  it('answers 401 on / without a session, serves assets, and 503 when the UI is not built', async () => {
    expect((await fetch(`${harness.origin}/`)).status).toBe(401);
    const asset = await fetch(`${harness.origin}/assets/app.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('text/javascript');
    expect((await fetch(`${harness.origin}/assets/..%2f..%2fconfig.json`)).status).toBe(404);
    await rename(join(harness.uiDir, 'index.html'), join(harness.uiDir, 'index.off'));
    try {
      const missing = await fetch(`${harness.origin}/`);
      expect(missing.status).toBe(503);
      expect(await missing.text()).toContain('npm run build');
    } finally {
      await rename(join(harness.uiDir, 'index.off'), join(harness.uiDir, 'index.html'));
    }
    expect((await fetch(`${harness.origin}/healthz`)).status).toBe(200);
  });

  it('gives a fresh login link to a holder of the main token only', async () => {
    expect((await fetch(`${harness.origin}/ui/login`, { method: 'POST' })).status).toBe(401);
    const res = await fetch(`${harness.origin}/ui/login`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${harness.headless.token}` },
    });
    const { url } = (await res.json()) as { url: string };
    expect(await login(url)).toMatch(/^sb_ui_/);
  });
});

describe('the WebSocket refuses', () => {
  it('a client with neither cookie nor token', async () => {
    await expect(connectBridge({ origin: harness.origin })).rejects.toMatchObject({ status: 401 });
  });

  it('a wrong Origin, even with the token or a session cookie', async () => {
    const cookie = await login(harness.headless.bridge!.loginUrl());
    await expect(
      connectBridge({ origin: harness.origin, token: harness.headless.token, originHeader: 'http://evil.example' }),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      connectBridge({ origin: harness.origin, cookie, originHeader: `http://127.0.0.1:${harness.headless.port + 1}` }),
    ).rejects.toMatchObject({ status: 403 });
  });

  it('a session cookie without an Origin, a wrong token, and a wrong Host', async () => {
    const cookie = await login(harness.headless.bridge!.loginUrl());
    await expect(connectBridge({ origin: harness.origin, cookie, originHeader: null })).rejects.toMatchObject({
      status: 401,
    });
    await expect(connectBridge({ origin: harness.origin, token: 'not-the-token' })).rejects.toMatchObject({
      status: 401,
    });
    await expect(
      connectBridge({
        origin: harness.origin.replace('127.0.0.1', 'localhost'),
        token: harness.headless.token,
        originHeader: null,
      }),
    ).resolves.toBeDefined();
  });
});

describe('mcp-switchboard serve', () => {
  it('prints the UI login link once; the link works once', async () => {
    const home = join(harness.root, 'cli-home');
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state') };
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      await waitUntil(() => /^Config: /m.test(stdout), { timeoutMs: 20_000, description: 'serve to print its banner' });
      const links = stdout.match(/^UI: (http:\/\/127\.0\.0\.1:\d+\/ui\?login=[A-Za-z0-9_-]+)$/gm) ?? [];
      expect(links).toHaveLength(1);
      const url = links[0]!.slice('UI: '.length);
      const cookie = await login(url);
      await expect(login(url)).rejects.toMatchObject({ status: 403 });
      const page = await fetch(new URL('/', url), { headers: { Cookie: cookie } });
      // 200 with the built UI; 503 (saying to build it) when dist/renderer is missing.
      expect([200, 503]).toContain(page.status);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
  });
});
