/**
 * Per-caller upstream credentials against real parts: an oidc-provider
 * authorization server issuing tokens for several people, and an SDK MCP
 * server that is its resource server and answers `whoami` with the subject
 * it sees (test/fixtures/oauth). Switchboard (core + HTTP endpoint) serves it
 * with `credentials: "per-caller"`; two client profiles stand in for two
 * people (alice, bob), each signing in through serve's own /connections/
 * pages over plain HTTP. One authorization server, one upstream, one serve.
 */
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackendHealth } from '../../../shared/model/health.js';
import { ClientTokens } from '../../../electron/core/catalog/index.js';
import {
  CALLER_CREDENTIALS_FILE,
  CallerTokenStore,
  UnreadableRecordError,
} from '../../../electron/core/platform/index.js';
import { startAuthServer, type AuthServer } from '../../fixtures/oauth/authServer.mjs';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/oauth/protectedServer.mjs';
import { firstText, fixture, nodeServer, startProxy, tempDir, type Harness } from '../../helpers/harness.js';
import { completeAuthorization } from '../../helpers/oauthBrowser.js';

const KEY = randomBytes(32);
/** The callers: the main token's local user (the operator here), and alice's client profile. */
const LOCAL = { clientId: 'local' };
const ALICE = { clientId: 'alice' };
let as: AuthServer;
let rs: ProtectedServer;
let harness: Harness;
let dir: { path: string; cleanup: () => Promise<void> };
/** alice's client declares URL-mode elicitation (2025-11-25); bob's is a 2026-07-28 client. */
let alice: Client;
let bob: Client;

const whoami = (client: Client) => client.callTool({ name: 'prot__whoami', arguments: {} });

function healthOf(): BackendHealth {
  const found = harness.core.health().find((entry) => entry.id === 'prot');
  if (!found) throw new Error('no backend "prot"');
  return found;
}

/** Resolves once the backend's health passes `check` (re-checked on each health change). */
function healthReaches(check: (health: BackendHealth) => boolean): Promise<BackendHealth> {
  return new Promise((resolve) => {
    const test = (): boolean => {
      if (!check(healthOf())) return false;
      stop();
      resolve(healthOf());
      return true;
    };
    const stop = harness.core.events.on('healthChanged', () => void test());
    test();
  });
}

/** What a call that must sign in first rejects with: the JSON-RPC code and the link. */
async function signInAsked(client: Client): Promise<{ code: number; url: string }> {
  const error = (await whoami(client).then(
    () => undefined,
    (caught: unknown) => caught,
  )) as { code?: number; data?: { url?: string; elicitations?: { url: string; mode: string }[] } } | undefined;
  expect(error, 'the call must not reach the upstream without a sign-in').toBeDefined();
  const url = error?.data?.elicitations?.[0]?.url ?? error?.data?.url ?? '';
  return { code: error?.code ?? 0, url };
}

async function signIn(url: string, login: string): Promise<void> {
  const page = await completeAuthorization(url, { login });
  expect(page.status, page.body).toBe(200);
  expect(page.body).toContain('as yourself');
}

beforeAll(async () => {
  as = await startAuthServer();
  rs = await startProtectedServer({ issuer: as.issuer });
  dir = await tempDir();
  const keyFile = join(dir.path, 'token.key');
  await writeFile(keyFile, KEY.toString('base64'));
  harness = await startProxy(
    { proxy: { credentialKeyFile: keyFile }, mcpServers: { prot: { url: rs.url, credentials: 'per-caller' } } },
    { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')), deps: { stateDir: dir.path } },
  );
}, 30_000);

afterAll(async () => {
  await harness?.close();
  await rs?.close();
  await as?.close();
  await dir?.cleanup();
});

describe('a per-caller server', () => {
  it('waits for its first signed-in caller, who lists its catalog', async () => {
    expect(healthOf().status).toBe('needs-authorization');
    expect(healthOf().lastError?.message).toContain('nobody has signed in');
    const [listed] = await harness.core.connections.list(LOCAL);
    expect(listed).toMatchObject({ server: 'prot', connected: false });
    await signIn(listed?.signInUrl ?? '', 'operator');
    expect((await healthReaches((health) => health.status === 'up')).counts.tools).toBe(2);
    expect(await harness.core.connections.list(LOCAL)).toEqual([
      expect.objectContaining({ server: 'prot', connected: true }),
    ]);
  });

  it("asks each caller to sign in with their own link, never using another's token", async () => {
    const aliceToken = await harness.core.profiles.createProfile('alice', { name: 'Alice' });
    const bobToken = await harness.core.profiles.createProfile('bob', { name: 'Bob' });
    alice = await harness.connect('legacy', aliceToken, { capabilities: { elicitation: { url: {} } } });
    bob = await harness.connect('modern', bobToken);

    const aliceAsked = await signInAsked(alice);
    expect(aliceAsked.code).toBe(-32042); // URLElicitationRequiredError (2025-11-25)
    expect(aliceAsked.url).toMatch(new RegExp(`^${new URL(harness.url).origin}/connections/prot/start\\?link=`));
    const bobAsked = await signInAsked(bob);
    expect(bobAsked.code).toBe(-32000);
    expect(bobAsked.url).toMatch(/\/connections\/prot\/start\?link=/);
    expect(bobAsked.url).not.toBe(aliceAsked.url);

    await signIn(aliceAsked.url, 'alice');
    // bob still gets his own link, not alice's (or the operator's) token.
    const bobAgain = await signInAsked(bob);
    expect(bobAgain.url).toMatch(/\/connections\/prot\/start\?link=/);
    expect(bobAgain.url).not.toBe(aliceAsked.url);
    // A link is one-time: alice's used one is refused.
    const reused = await completeAuthorization(aliceAsked.url);
    expect(reused.status).toBe(400);
    await signIn(bobAgain.url, 'bob');
  });

  it('two callers calling the same tool at the same time each arrive upstream as themselves', async () => {
    const calls = [alice, bob, alice, bob, alice, bob].map((client) => whoami(client).then(firstText));
    const texts = await Promise.all(calls);
    expect(texts.map((text) => text.split(' ')[0])).toEqual(['alice', 'bob', 'alice', 'bob', 'alice', 'bob']);
    // One upstream connection per caller, none shared with the catalog's.
    expect(harness.core.pool.get('prot')?.callers.size).toBe(2);
  });

  it("refreshes a caller's token before it expires, with their refresh token, and stays that caller", async () => {
    const store = new CallerTokenStore(join(dir.path, CALLER_CREDENTIALS_FILE), KEY);
    const before = await store.tokens('prot', 'client:bob');
    expect(before?.refresh_token).toBeDefined();
    // As if bob's access token were about to expire (written the way the core writes it).
    await store.saveTokens('prot', 'client:bob', { ...before!, expires_at: Date.now() + 500 });
    const refreshes = as.stats.refreshGrants;
    expect(firstText(await whoami(bob))).toMatch(/^bob /);
    expect(as.stats.refreshGrants).toBe(refreshes + 1);
    const after = await store.tokens('prot', 'client:bob');
    expect(after?.access_token).not.toBe(before?.access_token);
    expect(after?.expires_at).toBeGreaterThan(Date.now() + 60_000);
  });

  it('keeps tokens encrypted at rest: none in clear, unreadable with another key', async () => {
    const path = join(dir.path, CALLER_CREDENTIALS_FILE);
    const text = await readFile(path, 'utf8');
    expect(rs.tokensSeen.size).toBeGreaterThanOrEqual(3);
    for (const token of rs.tokensSeen) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.split('.')[1] ?? token);
    }
    expect(text).not.toMatch(/access_token|refresh_token/);
    const right = await new CallerTokenStore(path, KEY).tokens('prot', 'client:alice');
    expect(rs.tokensSeen.has(right?.access_token ?? '')).toBe(true);
    const wrong = new CallerTokenStore(path, randomBytes(32));
    await expect(wrong.tokens('prot', 'client:alice')).rejects.toBeInstanceOf(UnreadableRecordError);
  });

  it("revoking removes the caller's token and connection; their next call asks again", async () => {
    expect(await harness.core.connections.revoke(ALICE, 'prot')).toEqual({ revoked: true });
    expect(harness.core.pool.get('prot')?.callers.size).toBe(1);
    const asked = await signInAsked(alice);
    expect(asked.code).toBe(-32042);
    expect(firstText(await whoami(bob))).toMatch(/^bob /);
    await expect(harness.core.connections.revoke(ALICE, 'nope')).rejects.toThrow(/not a server with per-caller/);
  });

  it('lists its catalog with the next signed-in caller when the first one revokes', async () => {
    expect(await harness.core.connections.revoke(LOCAL, 'prot')).toEqual({ revoked: true });
    await harness.core.pool
      .get('prot')
      ?.refresh()
      .catch(() => undefined);
    const health = await healthReaches((entry) => entry.status === 'up');
    expect(health.counts.tools).toBe(2);
    expect(firstText(await whoami(bob))).toMatch(/^bob /);
    expect((await signInAsked(alice)).code).toBe(-32042);
  });

  it("forgets every caller's tokens when the server is removed", async () => {
    const store = new CallerTokenStore(join(dir.path, CALLER_CREDENTIALS_FILE), KEY);
    expect(await store.callers('prot')).toEqual(['client:bob']);
    await harness.core.removeBackend('prot');
    expect(await store.callers('prot')).toEqual([]);
    expect(await store.client('prot')).toBeUndefined();
  });
});

describe('without a credential key', () => {
  it('a per-caller server reports the missing key (not retried); a shared server is unaffected', async () => {
    const bare = await startProxy(
      {
        mcpServers: {
          prot: { url: rs.url, credentials: 'per-caller' },
          local: nodeServer(fixture('configurable.mjs')),
        },
      },
      { deps: { stateDir: dir.path } },
    );
    try {
      const health = bare.core.health();
      const prot = health.find((entry) => entry.id === 'prot');
      expect(prot?.status).toBe('down');
      expect(prot?.lastError?.message).toMatch(/SWITCHBOARD_TOKEN_KEY or proxy\.credentialKeyFile/);
      expect(prot?.nextRetryAt).toBeUndefined();
      expect(health.find((entry) => entry.id === 'local')?.status).toBe('up');
    } finally {
      await bare.close();
    }
  });
});
