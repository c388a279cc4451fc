/**
 * The UI's state across replicas, with real parts: one Redis, and two pairs
 * of `serve` replicas of one config each. The first pair: a call under an
 * `ask` rule made through A, while only B's UI (the headless bridge) is
 * attached, waits on A, is listed and announced by B's UI, and is answered
 * there, once; the call on A completes. The second pair, in gateway mode
 * with `gateway.ui` (a real oidc-provider identity provider): a sign-in
 * started on A completes through B's callback (as a load balancer may send
 * it), the session works on both, and a sign-out through A is refused by B,
 * its open socket there closed.
 */
import { randomBytes } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer } from '../../fixtures/oauth/authServer.mjs';
import { connectBridge, type BridgeClient } from '../../helpers/bridgeClient.js';
import { nextEvent } from '../../helpers/bridgeHarness.js';
import { registerUi } from '../../helpers/gatewayClient.js';
import { completeAuthorization } from '../../helpers/oauthBrowser.js';
import { waitUntil } from '../../helpers/processes.js';
import { redisMissing, startRedis, type RedisServer } from '../../helpers/redisServer.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';
import { freePort } from '../../helpers/spawnServer.js';

const missing = redisMissing();
if (missing && process.env['CI']) throw new Error(missing);

const FIXTURE = new URL('../../fixtures/servers/configurable.mjs', import.meta.url).pathname;

const origin = (served: ServedHttp): string => new URL(served.url).origin;

/** The `name=value` of a response's cookie named `name`. */
function cookieOf(response: Response, name: string): string {
  const found = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
  if (!found) throw new Error(`no ${name} cookie (status ${response.status})`);
  return found.split(';')[0]!;
}

describe.skipIf(missing !== undefined)('the UI across replicas (Redis)', () => {
  let redis: RedisServer;
  let as: AuthServer;
  /** The first pair: plain serves, an `ask` tool. */
  let a: ServedHttp;
  let b: ServedHttp;
  /** The second pair: gateway mode with sign-in to the UI. */
  let ga: ServedHttp;
  let gb: ServedHttp;
  /** The origin a load balancer in front of the second pair would have. */
  let publicOrigin: string;
  let clientA: Client;
  let probe: Redis;
  /** Every key matching `pattern` and its string value, as one text. */
  const storedText = async (pattern: string): Promise<string> => {
    const keys = await probe.keys(pattern);
    const values = await Promise.all(keys.map((key) => probe.get(key).catch(() => '')));
    return [...keys, ...values].join('\n');
  };
  const bridges: BridgeClient[] = [];
  const bridge = async (served: ServedHttp, auth: { token?: string; cookie?: string }): Promise<BridgeClient> => {
    const client = await connectBridge({ origin: origin(served), ...auth });
    bridges.push(client);
    return client;
  };

  beforeAll(async () => {
    [redis, as] = await Promise.all([
      startRedis(),
      startAuthServer({ userinfoClaims: true, accounts: { alice: { email: 'alice@example.com', groups: ['ops'] } } }),
    ]);
    publicOrigin = `http://127.0.0.1:${await freePort()}`;
    const clientId = await registerUi(as.issuer, `${publicOrigin}/ui/callback`);
    const cluster = (keyPrefix: string) => ({ redis: { url: redis.url, keyPrefix, commandTimeoutMs: 1_000 } });
    const plain = {
      cluster: cluster('ui-approvals:'),
      mcpServers: { notes: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_TOOLS: 'read' } } },
      policy: { backends: { notes: { tools: { read: 'ask' } } } },
    };
    const gateway = {
      cluster: cluster('ui-sessions:'),
      mcpServers: {},
      gateway: {
        resource: `${publicOrigin}/mcp`,
        authorizationServers: [as.issuer],
        ui: { clientId, adminGroups: ['ops'] },
      },
    };
    const extras = { env: { SWITCHBOARD_TOKEN_KEY: randomBytes(32).toString('base64') } };
    [a, b, ga, gb] = await Promise.all([
      startServeHttp(plain),
      startServeHttp(plain),
      startServeHttp(gateway, extras),
      startServeHttp(gateway, extras),
    ]);
    probe = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await probe.connect();
    clientA = await a.connect();
    await waitUntil(async () => (await clientA.listTools()).tools.some((tool) => tool.name === 'notes__read'), {
      timeoutMs: 10_000,
      intervalMs: 50,
      description: 'A lists notes__read',
    });
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(bridges.map((client) => client.close()));
    probe?.disconnect();
    await Promise.allSettled([a?.stop(), b?.stop(), ga?.stop(), gb?.stop()]);
    await Promise.allSettled([redis?.stop(), as?.close()]);
  });

  it("a call waiting on A is listed and answered by B's UI, once, and completes on A", async () => {
    const uiB = await bridge(b, { token: b.token });
    // B's approver is known cluster-wide once B has answered anything (its Redis writes are in order).
    expect((await uiB.call('approvals.list')).ok).toBe(true);
    const announced = nextEvent(uiB, 'approvalsChanged');
    const call = clientA.callTool({ name: 'notes__read', arguments: { path: 'x' } });
    await announced;
    const listed = await uiB.call('approvals.list');
    expect(listed.ok).toBe(true);
    const pending = listed.ok ? (listed.result as { id: string; exposed: string; backend: string }[]) : [];
    expect(pending.map((request) => [request.exposed, request.backend])).toEqual([['notes__read', 'notes']]);
    const id = pending[0]!.id;
    expect((await uiB.call('approvals.resolve', { id, decision: 'once' })).ok).toBe(true);
    const result = await call;
    expect(result.isError).not.toBe(true);
    const again = await uiB.call('approvals.resolve', { id, decision: 'deny' });
    expect(again.ok ? undefined : again.error.code).toBe('unknown_approval');
    const after = await uiB.call('approvals.list');
    expect(after.ok ? after.result : undefined).toEqual([]);
  });

  it('a UI sign-in started on A completes through B, and the session works on both until signed out', async () => {
    const started = await fetch(`${origin(ga)}/ui/signin`, { redirect: 'manual' });
    expect(started.status).toBe(303);
    const flow = cookieOf(started, 'sb_ui_flow');
    // The identity provider sends the browser to the public origin; the balancer picks B.
    const back = await completeAuthorization(started.headers.get('location')!, {
      login: 'alice',
      stopAt: `${publicOrigin}/ui/callback`,
    });
    const callback = new URL(back.url);
    const signedIn = await fetch(`${origin(gb)}/ui/callback${callback.search}`, {
      headers: { cookie: flow },
      redirect: 'manual',
    });
    expect(signedIn.status).toBe(303);
    const session = cookieOf(signedIn, `sb_ui_${new URL(publicOrigin).port}`);
    // Redis holds the session under a digest of the cookie, never the cookie itself.
    const stored = await storedText('ui-sessions:*');
    expect(stored).toContain('alice@example.com');
    expect(stored).not.toContain(session.split('=')[1]!);

    const onA = await bridge(ga, { cookie: session });
    const onB = await bridge(gb, { cookie: session });
    expect((await onA.call('approvals.list')).ok).toBe(true);
    expect((await onB.call('approvals.list')).ok).toBe(true);

    const out = await fetch(`${origin(ga)}/ui/signout`, {
      method: 'POST',
      headers: { cookie: session },
      redirect: 'manual',
    });
    expect(out.status).toBe(303);
    const refused = await bridge(gb, { cookie: session }).then(
      () => undefined,
      (error: { status?: number }) => error.status,
    );
    expect(refused).toBe(401);
    // B closed the session's open socket when A signed it out.
    expect(await onB.closed).toBe(4401);
  });
});
