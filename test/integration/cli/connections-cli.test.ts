/**
 * `connections` end to end: the built `serve` with a per-caller server (the
 * OAuth-protected fixture of a real oidc-provider), its key in
 * SWITCHBOARD_TOKEN_KEY, and the built CLI asking the running instance for
 * the local user's connections, following its sign-in link, and revoking it.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallerConnectionView, ConnectionView } from '../../../shared/model/connectionViews.js';
import { startAuthServer, type AuthServer } from '../../fixtures/oauth/authServer.mjs';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/oauth/protectedServer.mjs';
import { BIN, runCli } from '../../helpers/cli.js';
import { firstText, tempDir } from '../../helpers/harness.js';
import { completeAuthorization } from '../../helpers/oauthBrowser.js';
import { waitUntil } from '../../helpers/processes.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

const TOKEN = 'connections-cli-token-0123456789';

describe('connections against a running serve', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  let as: AuthServer;
  let rs: ProtectedServer;
  let serve: SpawnedServer;
  let client: Client;
  const cli = (...args: string[]) => runCli(args, env);
  const whoami = () => client.callTool({ name: 'prot__whoami', arguments: {} });

  beforeAll(async () => {
    dir = await tempDir();
    as = await startAuthServer();
    rs = await startProtectedServer({ issuer: as.issuer });
    const configPath = join(dir.path, 'config.json');
    env = {
      HOME: dir.path,
      XDG_CONFIG_HOME: join(dir.path, 'xdg'),
      XDG_STATE_HOME: join(dir.path, 'state'),
      SWITCHBOARD_TOKEN: TOKEN,
      SWITCHBOARD_NO_BROWSER: '1',
      SWITCHBOARD_TOKEN_KEY: randomBytes(32).toString('base64'),
    };
    await mkdir(join(dir.path, 'xdg'), { recursive: true });
    await writeFile(configPath, JSON.stringify({ mcpServers: { prot: { url: rs.url, credentials: 'per-caller' } } }));
    serve = await spawnServer(
      [BIN, 'serve', '--config', configPath, '--port', '0', '--no-open'],
      /MCP endpoint: (\S+)/,
      env,
    );
    client = new Client({ name: 'connections-test', version: '1.0.0' });
    const headers = { Authorization: `Bearer ${TOKEN}` };
    await client.connect(new StreamableHTTPClientTransport(new URL(serve.match[1]!), { requestInit: { headers } }));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await serve?.stop();
    await rs?.close();
    await as?.close();
    await dir?.cleanup();
  });

  it("offers a sign-in tool before anyone signed in, whose call answers with the caller's own link; the real tools follow", async () => {
    // Nobody has signed in and nothing is cached: the client still sees how to sign in, no operator needed.
    const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
    await waitUntil(async () => (await names()).includes('prot__sign_in'), { description: 'the sign-in tool' });
    expect(await names()).toEqual(['prot__sign_in']);
    const answer = client.callTool({ name: 'prot__sign_in', arguments: {} });
    await expect(answer).rejects.toThrow(
      /sign in to it as yourself: open http:\/\/127\.0\.0\.1:\d+\/connections\/prot/,
    );
    const link = /open (\S+) to sign in/.exec(String(await answer.catch((error: unknown) => error)))?.[1] ?? '';
    await completeAuthorization(link, { login: 'operator' });
    await waitUntil(async () => (await names()).includes('prot__whoami'), { description: 'the real catalog' });
    expect(await names()).not.toContain('prot__sign_in');
    expect(firstText(await whoami())).toMatch(/^operator /);
    expect((await cli('connections', '--revoke', 'prot')).code).toBe(0);
  });

  it('lists the sign-in link, signs in through it, shows the connection, and revokes it', async () => {
    const listed = await cli('connections');
    expect(listed.code, listed.stderr).toBe(0);
    const link = /prot: not signed in; sign in at (\S+)/.exec(listed.stdout)?.[1] ?? '';
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/connections\/prot\/start\?link=/);
    const page = await completeAuthorization(link, { login: 'operator' });
    expect(page.body).toContain('as yourself');

    const connected = await cli('connections', '--json');
    const views = JSON.parse(connected.stdout) as ConnectionView[];
    expect(views).toEqual([expect.objectContaining({ server: 'prot', connected: true, scope: expect.any(String) })]);
    expect((await cli('connections')).stdout).toMatch(/^prot: signed in, token expires \S+, scope "/);
    await waitUntil(async () => (await client.listTools()).tools.some((tool) => tool.name === 'prot__whoami'), {
      description: 'prot to list its catalog with the first signed-in caller',
    });
    expect(firstText(await whoami())).toMatch(/^operator /);

    const stored = await readFile(join(dir.path, 'state/mcp-switchboard/caller-credentials.json'), 'utf8');
    for (const token of rs.tokensSeen) expect(stored).not.toContain(token);

    const revoked = await cli('connections', '--revoke', 'prot');
    expect(revoked.stdout).toBe('prot: your tokens are forgotten\n');
    await expect(whoami()).rejects.toThrow(
      /sign in to it as yourself: open http:\/\/127\.0\.0\.1:\d+\/connections\/prot/,
    );
    expect(JSON.parse((await cli('connections', '--all', '--json')).stdout)).toEqual([]);

    // An operator's view: everyone signed in (here the local user, signed in again), and revoking one of them.
    const again = /sign in at (\S+)/.exec((await cli('connections')).stdout)?.[1] ?? '';
    await completeAuthorization(again, { login: 'operator' });
    const everyone = await cli('connections', '--all', '--json');
    const [view, ...others] = JSON.parse(everyone.stdout) as CallerConnectionView[];
    expect(others).toEqual([]);
    expect(view).toEqual(
      expect.objectContaining({
        server: 'prot',
        caller: 'client:local',
        person: 'client local',
        scope: expect.any(String),
      }),
    );
    expect(Date.now() - Date.parse(view!.since!)).toBeLessThan(60_000);
    for (const token of rs.tokensSeen) expect(everyone.stdout).not.toContain(token);
    expect((await cli('connections', '--all')).stdout).toMatch(
      /^prot: client local, since \S+, token expires \S+, scope "[^"]*"\n {2}caller client:local\n$/,
    );
    const byOperator = await cli('connections', '--revoke', 'prot', '--caller', 'client:local');
    expect(byOperator.stdout).toBe('prot: the tokens of client:local are forgotten\n');
    expect((await cli('connections', '--json')).stdout).toContain('"connected": false');
    await expect(whoami()).rejects.toThrow(/sign in to it as yourself/);
    expect((await cli('connections', '--caller', 'client:local')).code).toBe(2);

    const unknown = await cli('connections', '--revoke', 'nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('"nope" is not a server with per-caller credentials');
  });
});
