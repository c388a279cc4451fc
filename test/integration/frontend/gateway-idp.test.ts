/**
 * Gateway mode against the team's real identity provider (the oidc-provider
 * fixture) issuing opaque access tokens for the gateway: `serve` checks them
 * by token introspection (RFC 7662) as a confidential client, and reaches an
 * upstream MCP server that is a resource server of the same identity
 * provider with `credentials: "token-exchange"`: each person's gateway token
 * is exchanged (RFC 8693) for a JWT meant for the upstream, which answers
 * `whoami` with the subject it sees. Real SDK clients sign in as alice and
 * bob (test/helpers/gatewayClient.ts). One identity provider, one upstream,
 * one serve.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { startAuthServer, type AuthServer } from '../../fixtures/oauth/authServer.mjs';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/oauth/protectedServer.mjs';
import { signIn, type SignedIn } from '../../helpers/gatewayClient.js';
import { firstText } from '../../helpers/harness.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';
import { freePort } from '../../helpers/spawnServer.js';

const CLIENT = { clientId: 'switchboard-gateway', clientSecret: 'gateway-client-secret-0123456789' };
const CACHE_MS = 1500;

let as: AuthServer;
let rs: ProtectedServer;
let serve: ServedHttp;
let resource: string;
let alice: SignedIn;
let bob: SignedIn;
const clients: Client[] = [];

beforeAll(async () => {
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  as = await startAuthServer({
    accounts: { alice: { email: 'alice@example.com' }, bob: { email: 'bob@example.com' } },
    confidentialClient: CLIENT,
    opaqueResources: [resource],
  });
  rs = await startProtectedServer({ issuer: as.issuer });
  const secret = '${GATEWAY_CLIENT_SECRET}';
  const config = {
    mcpServers: {
      prot: {
        url: rs.url,
        credentials: 'token-exchange',
        tokenExchange: { clientId: CLIENT.clientId, clientSecret: secret },
      },
    },
    policy: { clients: { everyone: { name: 'Everyone' } } },
    gateway: {
      resource,
      authorizationServers: [as.issuer],
      scopesSupported: ['mcp:read'],
      defaultProfile: 'everyone',
      introspection: { clientId: CLIENT.clientId, clientSecret: secret, cacheMs: CACHE_MS },
    },
  };
  serve = await startServeHttp(config, { port, env: { GATEWAY_CLIENT_SECRET: CLIENT.clientSecret } });
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await serve?.stop();
  await Promise.allSettled([rs?.close(), as?.close()]);
});

async function person(login: 'alice' | 'bob'): Promise<SignedIn> {
  const signed = await signIn(resource, login);
  clients.push(signed.client);
  return signed;
}

const whoami = async (client: Client) => firstText(await client.callTool({ name: 'prot__whoami', arguments: {} }));

/** A raw 2025-era initialize to /mcp with `token`. */
function post(token: string): Promise<Response> {
  const params = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
  return fetch(resource, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params }),
  });
}

const looksLikeJwt = (token: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);

describe('gateway mode with opaque tokens and token exchange', () => {
  it('alice signs in with an opaque token, is introspected, and reaches the upstream as alice', async () => {
    alice = await person('alice');
    expect(looksLikeJwt(alice.accessToken)).toBe(false);
    // The upstream's catalog is listed with the first signed-in person's exchanged token.
    await expect
      .poll(async () => (await alice.client.listTools()).tools.map((tool) => tool.name), { timeout: 15_000 })
      .toContain('prot__whoami');
    expect(await whoami(alice.client)).toMatch(/^alice /);
  });

  it('alice and bob calling at the same time arrive upstream as themselves; no gateway token goes upstream', async () => {
    bob = await person('bob');
    const texts = await Promise.all([alice, bob, alice, bob, alice, bob].map(({ client }) => whoami(client)));
    expect(texts.map((text) => text.split(' ')[0])).toEqual(['alice', 'bob', 'alice', 'bob', 'alice', 'bob']);
    // Exchanged tokens are reused until shortly before they expire.
    const exchanges = as.stats.tokenExchanges;
    expect(await whoami(alice.client)).toMatch(/^alice /);
    expect(as.stats.tokenExchanges).toBe(exchanges);
    expect(rs.tokensPresented.size).toBeGreaterThanOrEqual(2);
    for (const token of rs.tokensPresented) {
      expect(token).not.toBe(alice.accessToken);
      expect(token).not.toBe(bob.accessToken);
      expect(looksLikeJwt(token)).toBe(true);
    }
  });

  it('refuses a garbage token, and one whose introspection names another resource', async () => {
    const introspections = as.stats.introspections;
    const garbage = await post('not-a-token-anyone-issued');
    expect(garbage.status).toBe(401);
    expect(garbage.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await garbage.text()).toContain('not active');
    const other = await as.issueAccessToken({ accountId: 'carol', resource: 'http://127.0.0.1:9/other/mcp' });
    const refused = await post(other);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toContain('another resource');
    expect(as.stats.introspections - introspections).toBe(2);
    // Sent again and again, neither reaches the identity provider again while its refusal is kept (CACHE_MS) ...
    const again = await Promise.all(
      [...Array(5).keys()].map((n) => post(n % 2 === 0 ? 'not-a-token-anyone-issued' : other)),
    );
    expect(again.map((response) => response.status)).toEqual([401, 401, 401, 401, 401]);
    expect(await again[0]!.text()).toContain('not active');
    expect(await again[1]!.text()).toContain('another resource');
    expect(as.stats.introspections - introspections).toBe(2);
    // ... and only for that while.
    await expect
      .poll(async () => (await post('not-a-token-anyone-issued')).status === 401 && as.stats.introspections, {
        timeout: CACHE_MS + 5_000,
        interval: 200,
      })
      .toBe(introspections + 3);
  });

  it('refuses a revoked token once the introspection cache has passed', async () => {
    const token = await as.issueAccessToken({ accountId: 'carol', resource, scope: 'mcp:read' });
    expect((await post(token)).status).toBe(200);
    const revokedAt = Date.now();
    expect(await as.revokeAccessToken(token)).toBe(true);
    await expect.poll(async () => (await post(token)).status, { timeout: CACHE_MS + 5_000, interval: 200 }).toBe(401);
    // Not before the cached answer was due to lapse (the first check above cached it).
    expect(Date.now() - revokedAt).toBeGreaterThan(CACHE_MS / 2);
  });
});
