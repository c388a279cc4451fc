/**
 * Gateway mode against real parts: one real `serve` whose /mcp is an OAuth
 * protected resource of two authorization servers, an oidc-provider identity
 * provider with two people in different groups (alice: team-a, may have
 * notes:write; bob: team-b, may not) and a bare issuer of ours that signs
 * exactly the bad tokens a test needs; real SDK clients of both eras doing
 * the whole sign-in (401 -> Protected Resource Metadata -> AS metadata ->
 * dynamic registration -> PKCE -> consent). The backend is the configurable
 * stdio fixture with tools read, write (needs notes:write), hidden (denied
 * to team-b's profile) and ask (an `ask` rule).
 */
import { execFileSync } from 'node:child_process';
import { request } from 'node:https';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { startAuthServer, type AuthServer } from '../../fixtures/oauth/authServer.mjs';
import { signIn } from '../../helpers/gatewayClient.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';
import { startTokenIssuer, type TokenIssuer } from '../../helpers/tokenIssuer.js';
import { runCli } from '../../helpers/cli.js';
import { freePort } from '../../helpers/spawnServer.js';

const FIXTURE = join(import.meta.dirname, '../../fixtures/servers/configurable.mjs');

let as: AuthServer;
let issuer: TokenIssuer;
let serve: ServedHttp;
let resource: string;
const clients: Client[] = [];

function gatewayConfig(port: number) {
  resource = `http://127.0.0.1:${port}/mcp`;
  return {
    mcpServers: {
      notes: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_TOOLS: 'read,write,hidden,ask,quota' } },
    },
    policy: {
      backends: { notes: { toolScopes: { write: ['notes:write'] }, tools: { ask: 'ask' } } },
      clients: {
        'team-a': { name: 'Team A' },
        'team-b': { name: 'Team B', items: { notes: { tools: { hidden: 'deny' } } } },
      },
      groups: { 'team-a': { profile: 'team-a' }, 'team-b': { profile: 'team-b' } },
      // Each person their own bucket: 10 calls of `quota` a minute.
      limits: [{ match: {}, server: 'notes', tool: 'quota', rate: { points: 10, perSeconds: 60 } }],
    },
    gateway: {
      resource,
      authorizationServers: [as.issuer, issuer.issuer],
      scopesSupported: ['mcp:read', 'notes:write'],
      // Rotation is seen at once here (the default waits 30 s between two JWKS fetches).
      jwks: { cooldownMs: 0 },
    },
  };
}

beforeAll(async () => {
  [as, issuer] = await Promise.all([
    startAuthServer({
      resourceScopes: 'mcp:read notes:write',
      extraScopes: ['notes:write'],
      accounts: {
        alice: { email: 'alice@example.com', groups: ['team-a'] },
        bob: { email: 'bob@example.com', groups: ['team-b'], scopes: ['mcp:read'] },
      },
    }),
    startTokenIssuer(),
  ]);
  const port = await freePort();
  serve = await startServeHttp(gatewayConfig(port), { port });
}, 60_000);

afterAll(async () => {
  await Promise.allSettled(clients.map((client) => client.close()));
  await serve?.stop();
  await Promise.allSettled([as?.close(), issuer?.close()]);
});

/** Signs a person in; each client asks for every scope the gateway advertises (the IdP grants bob no notes:write). */
async function person(login: 'alice' | 'bob', options: Parameters<typeof signIn>[2] = {}) {
  const signed = await signIn(resource, login, options);
  clients.push(signed.client);
  return signed;
}

/** A raw POST to /mcp with `token`: a tools/call of `name`, or a 2025-era initialize. */
function post(token: string | undefined, name?: string): Promise<Response> {
  const initialize = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
  const body = name
    ? { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: {} } }
    : { jsonrpc: '2.0', id: 7, method: 'initialize', params: initialize };
  return fetch(resource, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();

describe('gateway mode: sign-in, principals, scopes', () => {
  it('serves Protected Resource Metadata and sends a request without a token to it', async () => {
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const metadata = (await (await fetch(new URL(path, resource))).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({
        resource,
        authorization_servers: [as.issuer, issuer.issuer],
        scopes_supported: ['mcp:read', 'notes:write'],
      });
    }
    const answer = await post(undefined);
    expect(answer.status).toBe(401);
    const challenge = answer.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain(
      `resource_metadata="${new URL('/.well-known/oauth-protected-resource/mcp', resource)}"`,
    );
    expect(challenge).not.toContain('error=');
  });

  it('alice (team-a, notes:write) signs in, lists every tool and calls the scoped one', async () => {
    const alice = await person('alice', { era: 'modern' });
    expect(alice.accessToken).toBeTruthy();
    expect(await names(alice.client)).toEqual([
      'notes__ask',
      'notes__hidden',
      'notes__quota',
      'notes__read',
      'notes__write',
    ]);
    const result = await alice.client.callTool({ name: 'notes__write', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'write:{"text":"hi"}' }]);
  });

  it('bob (team-b, no notes:write) neither lists nor calls the scoped tool, and is told the scope', async () => {
    const bob = await person('bob', { era: 'legacy' });
    // hidden: team-b's profile denies it (group binding); write: bob's token lacks notes:write.
    expect(await names(bob.client)).toEqual(['notes__ask', 'notes__quota', 'notes__read']);
    const answer = await post(bob.accessToken, 'notes__write');
    expect(answer.status).toBe(403);
    const challenge = answer.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toMatch(/scope="[^"]*notes:write/);
    const body = (await answer.json()) as { id: unknown; error: { message: string; data: { scopes: string[] } } };
    expect(body.id).toBe(7);
    expect(body.error.message).toContain('notes:write');
    expect(body.error.data.scopes).toContain('notes:write');
    await expect(bob.client.callTool({ name: 'notes__write', arguments: {} })).rejects.toThrow();
    const read = await bob.client.callTool({ name: 'notes__read', arguments: {} });
    expect(read.content).toEqual([{ type: 'text', text: 'read:{}' }]);
  });

  it('refuses with 401 a token for another audience, an expired one, one of a rotated-away key, a forged one', async () => {
    const claims = { sub: 'carol', aud: resource, scope: 'mcp:read', groups: ['team-a'] };
    const good = await issuer.sign(claims);
    expect((await post(good)).status).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    const refusals: Record<string, string> = {
      audience: await issuer.sign({ ...claims, aud: 'https://other.example.com/mcp' }),
      expired: await issuer.sign({ ...claims, iat: now - 3600, exp: now - 600 }),
      forged: await issuer.sign(claims, 'forged'),
    };
    await issuer.rotate();
    // The new key is fetched on first sight; the old one is gone from the JWKS.
    expect((await post(await issuer.sign(claims))).status).toBe(200);
    refusals['rotated'] = await issuer.sign(claims, 'previous');
    for (const [why, token] of Object.entries(refusals)) {
      const answer = await post(token);
      expect(answer.status, why).toBe(401);
      expect(answer.headers.get('www-authenticate'), why).toContain('error="invalid_token"');
    }
  });

  it('tells a person bound to no profile what to ask the operator for (403), instead of an empty list', async () => {
    const token = await issuer.sign({ sub: 'dave', email: 'dave@example.com', groups: ['sales'], aud: resource });
    for (const answer of [await post(token), await post(token, 'notes__read')]) {
      expect(answer.status).toBe(403);
      const body = (await answer.json()) as { error: { message: string; data: { code: string } } };
      expect(body.error.data.code).toBe('forbidden');
      expect(body.error.message).toContain('dave@example.com; groups: sales');
      expect(body.error.message).toMatch(/policy\.principals.*policy\.groups.*gateway\.defaultProfile/);
    }
  });

  it('asks each person about their own call (ask rule), never the other', async () => {
    const asked: Record<string, string[]> = { alice: [], bob: [] };
    const answers = { alice: 'once', bob: 'deny' } as const;
    const signed = await Promise.all(
      (['alice', 'bob'] as const).map(async (login) => {
        const { client } = await person(login, { era: 'legacy', capabilities: { elicitation: { form: {} } } });
        client.setRequestHandler('elicitation/create', (request) => {
          asked[login]!.push(request.params.message);
          return { action: 'accept', content: { decision: answers[login] } };
        });
        return client;
      }),
    );
    const [aliceResult, bobResult] = await Promise.all(
      signed.map((client) => client.callTool({ name: 'notes__ask', arguments: {} })),
    );
    expect(aliceResult!.content).toEqual([{ type: 'text', text: 'ask:{}' }]);
    expect(bobResult!.isError).toBe(true);
    expect(asked.alice).toHaveLength(1);
    expect(asked.bob).toHaveLength(1);
  });

  it("stops alice's 11th call of a 10-a-minute tool while bob's go through: limits are per person", async () => {
    const [alice, bob] = await Promise.all([person('alice', { era: 'legacy' }), person('bob', { era: 'legacy' })]);
    const call = (who: typeof alice) =>
      who.client.callTool({ name: 'notes__quota', arguments: {} }).then(
        () => 'ok',
        (error: unknown) => error,
      );
    const [aliceOutcomes, bobOutcomes] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, () => call(alice))),
      Promise.all(Array.from({ length: 10 }, () => call(bob))),
    ]);
    expect([...aliceOutcomes, ...bobOutcomes]).toEqual(Array(20).fill('ok'));
    // Each bucket is the person's (issuer and subject), not their client profile's.
    expect(await call(alice)).toMatchObject({
      data: { code: 'rate_limited', retryable: true, scope: { caller: expect.stringMatching(/^principal:.+#alice$/) } },
    });
    expect(await call(bob)).toMatchObject({
      data: { code: 'rate_limited', scope: { caller: expect.stringMatching(/^principal:.+#bob$/) } },
    });
  });

  it('names the person in each audit entry, never a token', async () => {
    const dir = join(serve.home, 'state', 'mcp-switchboard', 'audit');
    const readAudit = async () => {
      const files = (await readdir(dir).catch(() => [])).filter((name) => /^audit.*\.jsonl$/.test(name));
      return (await Promise.all(files.map((name) => readFile(join(dir, name), 'utf8')))).join('');
    };
    type Entry = { item: string; outcome: string; principal?: { subject: string; email?: string } };
    const entries = async () =>
      (await readAudit())
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Entry);
    const alice = { subject: 'alice', email: 'alice@example.com' };
    // The log writes in the background: poll until both entries are there.
    await expect
      .poll(entries)
      .toContainEqual(
        expect.objectContaining({ item: 'write', outcome: 'ok', principal: expect.objectContaining(alice) }),
      );
    await expect.poll(entries).toContainEqual(
      expect.objectContaining({
        item: 'ask',
        outcome: 'denied',
        principal: expect.objectContaining({ subject: 'bob' }),
      }),
    );
    // The limit's refusals name each person too.
    for (const subject of ['alice', 'bob']) {
      await expect.poll(entries).toContainEqual(
        expect.objectContaining({
          item: 'quota',
          outcome: 'denied',
          principal: expect.objectContaining({ subject }),
        }),
      );
    }
    expect(await readAudit()).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  });
});

describe('TLS served directly', () => {
  it('serves HTTPS from a certificate and key (--tls-cert, --tls-key)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-tls-'));
    const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-keyout',
        key,
        '-out',
        cert,
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const port = await freePort();
    const https = `https://127.0.0.1:${port}/mcp`;
    const gateway = { resource: https, authorizationServers: [issuer.issuer] };
    const served = await startServeHttp({ gateway }, { port, args: ['--tls-cert', cert, '--tls-key', key] });
    try {
      expect(served.url).toBe(https);
      const ca = await readFile(cert);
      const metadata = await new Promise<string>((resolve, reject) => {
        const url = new URL('/.well-known/oauth-protected-resource/mcp', https);
        request(url, { ca }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        })
          .on('error', reject)
          .end();
      });
      expect(JSON.parse(metadata)).toMatchObject({ resource: https });
    } finally {
      await served.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('listening beyond loopback', () => {
  it('is refused without gateway mode, saying what to do', async () => {
    const result = await runCli(['serve', '--host', '0.0.0.0', '--port', '0'], {
      XDG_CONFIG_HOME: join(serve.home, 'other'),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('needs gateway mode');
    expect(result.stderr).toContain('--insecure-no-auth-on-network');
  });
});

describe('a gateway change while serve runs', () => {
  /** Edits serve's config file as an operator would. */
  async function edit(change: (config: ReturnType<typeof gatewayConfig>) => void): Promise<void> {
    const config = JSON.parse(await readFile(serve.configPath, 'utf8')) as ReturnType<typeof gatewayConfig>;
    change(config);
    await writeFile(serve.configPath, JSON.stringify(config));
  }

  /** Polls `probe` until it holds (an edit is applied within moments, not at once). */
  async function eventually(probe: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await probe())) {
      if (Date.now() > deadline) throw new Error(`not applied within 20 s: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('applies a new group binding and default profile live, and names a change that needs a restart in /readyz', async () => {
    const erin = await issuer.sign({ sub: 'erin', email: 'erin@example.com', groups: ['sales'], aud: resource });
    expect((await post(erin)).status).toBe(403);
    const readyz = new URL('/readyz', resource);
    expect(await (await fetch(readyz)).json()).not.toHaveProperty('restartNeeded');

    // A new group binding: erin's next request is served, no restart, no new sign-in.
    await edit((config) => {
      (config.policy.groups as Record<string, { profile: string }>)['sales'] = { profile: 'team-b' };
    });
    await eventually(async () => (await post(erin)).status === 200, 'the sales group binding');

    // A default profile: a person of no bound group is served by it.
    const frank = await issuer.sign({ sub: 'frank', groups: ['support'], aud: resource });
    expect((await post(frank)).status).toBe(403);
    await edit((config) => Object.assign(config.gateway, { defaultProfile: 'team-b' }));
    await eventually(async () => (await post(frank)).status === 200, 'gateway.defaultProfile');

    // The advertised scopes are read at start: the replica stays ready, and says what waits for a restart.
    await edit((config) => Object.assign(config.gateway, { scopesSupported: ['mcp:read'] }));
    let answer: Response | undefined;
    await eventually(async () => {
      answer = await fetch(readyz);
      return ((await answer.clone().json()) as { restartNeeded?: string[] }).restartNeeded !== undefined;
    }, 'restartNeeded in /readyz');
    expect(answer!.status).toBe(200);
    expect(await answer!.json()).toMatchObject({ ready: true, restartNeeded: ['gateway.scopesSupported'] });
    // Still the scopes it started with.
    const metadata = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', resource));
    expect(((await metadata.json()) as { scopes_supported: string[] }).scopes_supported).toContain('notes:write');
  });
});
