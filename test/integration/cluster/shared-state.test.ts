/**
 * Two real `serve` replicas (each its own state dir and its own copy of one
 * config) sharing one real Redis (Debian's redis-server, append-only file
 * on, as docs/deploy.md configures it): a rate limit holds across them; a
 * policy change through A's UI contract (the headless bridge) applies on B
 * within a second; a sign-in to a per-caller server (a real oidc-provider
 * authorization server and its resource server) started from A's link and
 * completed through B works on both, and when both refresh that person's
 * expired token at once, one refresh reaches the authorization server (its
 * refresh tokens are single-use); Redis restarted mid-run keeps the
 * token; while Redis is down, `/readyz` says so, calls that need no shared
 * state still work, and a config change is refused with nothing lost. A
 * plain `tools/call` makes no Redis round trip (Redis's own command counts).
 * The operator's key rotates under a steady load of that person's calls,
 * as docs/deploy.md says (the new key added for reading, then put first,
 * then the old one dropped), and nobody signs in again.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { Redis } from 'ioredis';
import { compactDecrypt, CompactEncrypt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthServer, type AuthServer } from '../../fixtures/oauth/authServer.mjs';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/oauth/protectedServer.mjs';
import { connectBridge, type BridgeClient } from '../../helpers/bridgeClient.js';
import { runCli } from '../../helpers/cli.js';
import { completeAuthorization } from '../../helpers/oauthBrowser.js';
import { waitUntil } from '../../helpers/processes.js';
import { redisMissing, startRedis, type RedisServer } from '../../helpers/redisServer.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';

const missing = redisMissing();
if (missing && process.env['CI']) throw new Error(missing);

const FIXTURE = join(import.meta.dirname, '../../fixtures/servers/configurable.mjs');
const QUOTA = 4;

interface Ready {
  ready: boolean;
  sharedState?: { status: 'up' | 'down'; replicaId: string };
}

describe.skipIf(missing !== undefined)('replicas sharing state in Redis', () => {
  let redis: RedisServer;
  let as: AuthServer;
  let rs: ProtectedServer;
  let dir: string;
  let a: ServedHttp;
  let b: ServedHttp;
  let clientA: Client;
  let clientB: Client;
  let bridgeA: BridgeClient;
  let probe: Redis;
  let key: Uint8Array;
  let config: Record<string, unknown>;

  const origin = (served: ServedHttp) => new URL(served.url).origin;
  const readyz = async (served: ServedHttp): Promise<{ status: number; body: Ready }> => {
    const response = await fetch(`${origin(served)}/readyz`, { signal: AbortSignal.timeout(5_000) });
    return { status: response.status, body: (await response.json()) as Ready };
  };
  const call = (client: Client, name: string) =>
    client.callTool({ name, arguments: {} }).then(
      (result) => (result.content as { text: string }[])[0]?.text ?? '',
      (error: unknown) => error as { data?: { code?: string } },
    );
  const toolNames = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sb-shared-'));
    const keyFile = join(dir, 'credential.key');
    key = randomBytes(32);
    await writeFile(keyFile, Buffer.from(key).toString('base64'));
    [redis, as] = await Promise.all([startRedis(), startAuthServer()]);
    rs = await startProtectedServer({ issuer: as.issuer });
    config = {
      cluster: { redis: { url: redis.url, keyPrefix: 'sb-test:', connectTimeoutMs: 1_000, commandTimeoutMs: 500 } },
      proxy: { credentialKeyFile: keyFile },
      mcpServers: {
        notes: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_TOOLS: 'read,quota,plain,extra' } },
        prot: { url: rs.url, credentials: 'per-caller' },
      },
      policy: { limits: [{ match: {}, server: 'notes', tool: 'quota', rate: { points: QUOTA, perSeconds: 60 } }] },
    };
    [a, b] = await Promise.all([startServeHttp(config), startServeHttp(config)]);
    [clientA, clientB] = await Promise.all([a.connect(), b.connect()]);
    bridgeA = await connectBridge({ origin: origin(a), token: a.token });
    probe = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    probe.on('error', () => undefined); // away while Redis restarts; reconnects by itself
    await probe.connect();
    for (const client of [clientA, clientB]) {
      await waitUntil(async () => (await toolNames(client)).includes('notes__quota'), {
        timeoutMs: 15_000,
        description: 'notes listed',
      });
    }
  }, 40_000);

  afterAll(async () => {
    probe?.disconnect();
    await bridgeA?.close();
    await Promise.allSettled([a?.stop(), b?.stop()]);
    await Promise.allSettled([rs?.close(), as?.close(), redis?.stop()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('each replica reports the shared state up in /readyz, under its own id', async () => {
    const [readyA, readyB] = await Promise.all([readyz(a), readyz(b)]);
    expect(readyA.body.sharedState?.status).toBe('up');
    expect(readyB.body.sharedState?.status).toBe('up');
    expect(readyA.body.sharedState?.replicaId).not.toBe(readyB.body.sharedState?.replicaId);
  });

  it('a rate limit holds across the replicas; a plain tools/call makes no Redis round trip', async () => {
    const outcomes: unknown[] = [];
    for (let n = 0; n < QUOTA; n++) outcomes.push(await call(n % 2 === 0 ? clientA : clientB, 'notes__quota'));
    expect(outcomes.every((outcome) => typeof outcome === 'string')).toBe(true);
    // The quota is spent: the next call is refused whichever replica it reaches.
    expect(await call(clientA, 'notes__quota')).toMatchObject({ data: { code: 'rate_limited' } });
    expect(await call(clientB, 'notes__quota')).toMatchObject({ data: { code: 'rate_limited' } });

    // Every command Redis runs meanwhile, but the replicas' own clocks (each refreshes its task heartbeat every
    // second, and A, whose UI is attached, its approver's heartbeat).
    const monitor = await probe.monitor();
    const seen: string[] = [];
    monitor.on('monitor', (_time: string, args: string[]) => {
      if (!/:tasks:alive:|:approvals:(approvers|holders)$/.test(args[1] ?? '')) seen.push(args.join(' '));
    });
    try {
      for (let n = 0; n < 10; n++)
        expect(await call(n % 2 === 0 ? clientA : clientB, 'notes__plain')).toMatch(/^plain:/);
    } finally {
      monitor.disconnect();
    }
    expect(seen).toEqual([]);
  });

  it("a policy change through A's UI applies on B within a second", async () => {
    expect(await toolNames(clientB)).toContain('notes__read');
    const changed = await bridgeA.call('policy.setRule', {
      backendId: 'notes',
      kind: 'tools',
      original: 'read',
      rule: 'deny',
    });
    expect(changed).toMatchObject({ ok: true });
    const started = Date.now();
    await waitUntil(async () => !(await toolNames(clientB)).includes('notes__read'), {
      timeoutMs: 3_000,
      intervalMs: 25,
      description: 'B applies the deny rule',
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("a hand edit of B's config file (as the CLI writes it) applies on A within a second, as a patch", async () => {
    const document = JSON.parse(await readFile(b.configPath, 'utf8')) as { policy: Record<string, unknown> };
    document.policy['backends'] = { notes: { tools: { extra: 'deny' } } };
    await writeFile(b.configPath, JSON.stringify(document, null, 2));
    const started = Date.now();
    await waitUntil(async () => !(await toolNames(clientA)).includes('notes__extra'), {
      timeoutMs: 3_000,
      intervalMs: 25,
      description: 'A applies the edit of B',
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    // A patch: the rule set through A's UI before is kept.
    expect(await toolNames(clientB)).not.toContain('notes__read');
  });

  it("a CLI command writing B's file while B runs applies on A as a patch, the UI's changes kept", async () => {
    const description = 'Plain, described through the CLI';
    const cli = await runCli(
      ['override', 'notes', 'plain', '--description', description, '--config', b.configPath],
      b.env,
    );
    expect(cli, cli.stderr).toMatchObject({ code: 0 });
    const describedOn = async (client: Client) =>
      (await client.listTools()).tools.find((tool) => tool.name === 'notes__plain')?.description;
    await waitUntil(async () => (await describedOn(clientA)) === description, {
      timeoutMs: 3_000,
      intervalMs: 25,
      description: 'A applies the CLI write to B',
    });
    // Only the change: the rule set through A's UI and the hand edit before it stay, on both replicas.
    for (const client of [clientA, clientB]) {
      const names = await toolNames(client);
      expect(names).not.toContain('notes__read');
      expect(names).not.toContain('notes__extra');
    }
  });

  it("a sign-in started from A's link and completed through B works on both replicas", async () => {
    const listed = await bridgeA.call('connections.list');
    const link = listed.ok ? (listed.result as { server: string; signInUrl?: string }[])[0]?.signInUrl : undefined;
    expect(link).toMatch(new RegExp(`^${origin(a)}/connections/prot/start\\?link=`));
    // The person's browser reaches B with A's link (a load balancer may send it anywhere); B's callback ends it.
    const page = await completeAuthorization(link!.replace(origin(a), origin(b)), { login: 'operator' });
    expect(page.status, page.body).toBe(200);
    for (const client of [clientA, clientB]) {
      await waitUntil(async () => (await toolNames(client)).includes('prot__whoami'), {
        timeoutMs: 10_000,
        description: 'prot listed with the signed-in caller',
      });
      expect(await call(client, 'prot__whoami')).toMatch(/^operator /);
    }
    // The record in Redis is a JWE, never the token in clear.
    const [sealed] = await probe.hvals('sb-test:callers:prot');
    expect(sealed?.split('.')).toHaveLength(5);
  });

  it("two replicas refreshing one person's expired token at once: one refresh, both calls work", async () => {
    // The sealed record in Redis, its access token made to look expired (as an hour later): both replicas refresh.
    const [caller, sealed] = await probe.hgetall('sb-test:callers:prot').then((all) => Object.entries(all)[0]!);
    const record = JSON.parse(new TextDecoder().decode((await compactDecrypt(sealed, key)).plaintext)) as {
      tokens: { access_token: string; expires_at: number };
    };
    record.tokens.expires_at = Date.now() - 1_000;
    const expired = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(record)))
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .encrypt(key);
    await probe.hset('sb-test:callers:prot', caller, expired);
    const refreshes = as.stats.refreshGrants;
    // The authorization server rotates refresh tokens (public client) and revokes the grant when one is reused.
    const outcomes = await Promise.all([call(clientA, 'prot__whoami'), call(clientB, 'prot__whoami')]);
    expect(outcomes).toEqual([expect.stringMatching(/^operator /), expect.stringMatching(/^operator /)]);
    expect(as.stats.refreshGrants - refreshes).toBe(1);
    // Still signed in on both, with the one new token.
    expect(await call(clientA, 'prot__whoami')).toMatch(/^operator /);
    expect(await call(clientB, 'prot__whoami')).toMatch(/^operator /);
    expect(as.stats.refreshGrants - refreshes).toBe(1);
  });

  it('Redis restarted mid-run: the token, the policy and the counters are still there', async () => {
    await redis.restart();
    await waitUntil(
      async () => (await Promise.all([readyz(a), readyz(b)])).every(({ body }) => body.sharedState?.status === 'up'),
      { timeoutMs: 10_000, intervalMs: 100, description: 'both replicas see Redis again' },
    );
    expect(await call(clientB, 'prot__whoami')).toMatch(/^operator /);
    expect(await call(clientA, 'notes__quota')).toMatchObject({ data: { code: 'rate_limited' } });
    expect(await toolNames(clientA)).not.toContain('notes__read');
  });

  it('while Redis is down: readyz says so, calls needing no shared state work, a config change is refused', async () => {
    await redis.pause();
    try {
      await waitUntil(async () => (await readyz(a)).body.sharedState?.status === 'down', {
        timeoutMs: 5_000,
        intervalMs: 100,
        description: 'A sees Redis down',
      });
      const ready = await readyz(a);
      expect(ready.status).toBe(200);
      expect(await call(clientA, 'notes__plain')).toMatch(/^plain:/);
      expect(await call(clientB, 'notes__plain')).toMatch(/^plain:/);
      const refused = await bridgeA.call('policy.setRule', {
        backendId: 'notes',
        kind: 'tools',
        original: 'read',
        rule: null,
      });
      expect(refused).toMatchObject({ ok: false, error: { code: 'config_unreadable' } });
      expect(refused.ok ? '' : refused.error.message).toMatch(/cannot reach now.*nothing was changed/);
      // The last config is still served.
      expect(await toolNames(clientA)).not.toContain('notes__read');
    } finally {
      await redis.start();
    }
  });

  it('the key rotates under load: new key added, put first, old one dropped; nobody signs in again', async () => {
    const newKey = randomBytes(32);
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
    const replicaWith = async (keys: Uint8Array[]) => {
      const file = join(dir, `key-${randomBytes(4).toString('hex')}`);
      await writeFile(file, keys.map(b64).join('\n'));
      const proxy = { ...(config['proxy'] as object), credentialKeyFile: file };
      return startServeHttp({ ...config, proxy });
    };
    const signInsBefore = as.stats.authorizationCodeGrants;
    // Step 1 (every replica reads the new key too), step 2 (the new key first, the old one kept for reading).
    const [reading, writing] = await Promise.all([replicaWith([key, newKey]), replicaWith([newKey, key])]);
    const replicas = [reading, writing];
    try {
      const [onReading, onWriting] = await Promise.all([reading.connect(), writing.connect()]);
      for (const client of [onReading, onWriting])
        await waitUntil(async () => (await toolNames(client)).includes('prot__whoami'), {
          timeoutMs: 15_000,
          description: 'prot listed on the new replicas',
        });
      // The load: the person's calls, one after another through each replica, until the rotation is over.
      const outcomes: unknown[] = [];
      let loading = true;
      const load = Promise.all(
        [onReading, onWriting].map(async (client) => {
          while (loading) outcomes.push(await call(client, 'prot__whoami'));
        }),
      );
      await waitUntil(() => outcomes.length >= 10, { timeoutMs: 10_000, description: 'calls under way' });
      // Step 3: the last replica on step 1 gone, every record is sealed under the new key as it is used.
      await reading.stop();
      replicas.shift();
      loading = false;
      await load;
      expect(await call(onWriting, 'prot__whoami')).toMatch(/^operator /);
      const [sealed] = await probe.hvals('sb-test:callers:prot');
      await expect(compactDecrypt(sealed!, key)).rejects.toThrow();
      expect((await compactDecrypt(sealed!, newKey)).plaintext.length).toBeGreaterThan(0);
      // The old key dropped: a replica with the new key alone still serves the person.
      const only = await replicaWith([newKey]);
      replicas.push(only);
      const onOnly = await only.connect();
      await waitUntil(async () => (await toolNames(onOnly)).includes('prot__whoami'), { timeoutMs: 15_000 });
      expect(await call(onOnly, 'prot__whoami')).toMatch(/^operator /);
      expect(outcomes.length).toBeGreaterThanOrEqual(10);
      expect(outcomes.filter((outcome) => typeof outcome !== 'string' || !/^operator /.test(outcome))).toEqual([]);
      expect(as.stats.authorizationCodeGrants).toBe(signInsBefore);
      expect(writing.stderr()).toMatch(/credential key rotation: \d+ record\(s\) sealed again under the new key/);
    } finally {
      await Promise.allSettled(replicas.map((replica) => replica.stop()));
    }
  }, 90_000);
});
