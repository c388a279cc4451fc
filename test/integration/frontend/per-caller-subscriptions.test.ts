/**
 * Resource subscriptions through a per-caller server, against real parts: an
 * oidc-provider authorization server, its resource server (an SDK MCP server
 * whose updates reach the listen streams of one token subject only:
 * test/fixtures/oauth), and two people (alice, bob) as client profiles who
 * each sign in through serve's own /connections/ pages, with SDK clients of
 * both eras. Each person's subscription is made on their own upstream
 * connection, with their own credentials; an update on it reaches that
 * person's sessions only; unsubscribing, or an administrator revoking their
 * connection, ends their upstream subscription and no one else's.
 */
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientTokens } from '../../../electron/core/catalog/index.js';
import { startAuthServer, type AuthServer } from '../../fixtures/oauth/authServer.mjs';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/oauth/protectedServer.mjs';
import { startProxy, tempDir, type Harness } from '../../helpers/harness.js';
import { completeAuthorization } from '../../helpers/oauthBrowser.js';
import { waitUntil } from '../../helpers/processes.js';

const BOARD = 'mcp-proxy://prot/note://board';

describe('resource subscriptions through a per-caller server', () => {
  let as: AuthServer;
  let rs: ProtectedServer;
  let harness: Harness;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const tokens: Record<string, string> = {};
  const clients: (V1Client | Client)[] = [];

  async function v1(person: string): Promise<V1Client> {
    const c = new V1Client(
      { name: 'per-caller-subscriptions', version: '1.0.0' },
      { capabilities: { elicitation: { form: {}, url: {} } } },
    );
    c.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
    await c.connect(
      new V1HttpTransport(new URL(harness.url), {
        requestInit: { headers: { Authorization: `Bearer ${tokens[person]}` } },
      }),
    );
    clients.push(c);
    return c;
  }
  /** The URIs each client was told were updated, by name. */
  const updates: Record<string, string[]> = {};
  function hear(name: string, c: V1Client): V1Client {
    updates[name] = [];
    c.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates[name]!.push(n.params.uri));
    return c;
  }
  /** The sign-in link a call that needs one carries (the error's data). */
  async function signInLink(c: V1Client): Promise<string> {
    const error = (await c.callTool({ name: 'prot__whoami', arguments: {} }).then(
      () => undefined,
      (caught: unknown) => caught,
    )) as { data?: { url?: string; elicitations?: { url: string }[] } } | undefined;
    const url = error?.data?.elicitations?.[0]?.url ?? error?.data?.url;
    expect(url, 'a sign-in link').toBeDefined();
    return url!;
  }
  async function signIn(url: string, login: string): Promise<void> {
    const page = await completeAuthorization(url, { login });
    expect(page.status, page.body).toBe(200);
  }
  const touch = (c: V1Client) => c.callTool({ name: 'prot__touch', arguments: { uri: 'note://board' } });
  /** Some time for a stray update to arrive (none may). */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

  beforeAll(async () => {
    as = await startAuthServer();
    rs = await startProtectedServer({ issuer: as.issuer, notes: true });
    dir = await tempDir();
    const keyFile = join(dir.path, 'token.key');
    await writeFile(keyFile, randomBytes(32).toString('base64'));
    harness = await startProxy(
      { proxy: { credentialKeyFile: keyFile }, mcpServers: { prot: { url: rs.url, credentials: 'per-caller' } } },
      { tokens: new ClientTokens(join(dir.path, 'client-tokens.json')), deps: { stateDir: dir.path } },
    );
    const [operator] = await harness.core.connections.list({ clientId: 'local' });
    await signIn(operator?.signInUrl ?? '', 'operator');
    await waitUntil(() => harness.core.health().find((entry) => entry.id === 'prot')?.status === 'up', {
      timeoutMs: 10_000,
      description: 'prot up',
    });
    for (const person of ['alice', 'bob']) {
      tokens[person] = await harness.core.profiles.createProfile(person, { name: person });
      const c = await v1(person);
      await signIn(await signInLink(c), person);
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((c) => c.close()));
    await harness?.close();
    await rs?.close();
    await as?.close();
    await dir?.cleanup();
  });

  it("subscribes each person on their own connection, and delivers an update to that person's sessions only", async () => {
    const alice = hear('alice', await v1('alice'));
    const bob = hear('bob', await v1('bob'));
    // Both in the 2026-07-28 era as well: their listen streams.
    const modern = async (person: string): Promise<Client> => {
      const c = await harness.connect('modern', tokens[person]);
      clients.push(c);
      const name = `${person}Modern`;
      updates[name] = [];
      c.setNotificationHandler('notifications/resources/updated', (n) => void updates[name]!.push(n.params.uri));
      return c;
    };
    const aliceModern = await modern('alice');
    const bobModern = await modern('bob');

    await alice.subscribeResource({ uri: BOARD });
    await bob.subscribeResource({ uri: BOARD });
    const listen = await aliceModern.listen({ resourceSubscriptions: [BOARD] });
    expect(listen.honoredFilter.resourceSubscriptions).toEqual([BOARD]);
    const bobListen = await bobModern.listen({ resourceSubscriptions: [BOARD] });
    // One upstream subscription per person, each with that person's own token.
    expect(rs.listeners().sort()).toEqual(['alice', 'bob']);
    expect(harness.core.subscriptions.counts()[BOARD]).toBe(4);

    await touch(alice);
    await waitUntil(() => updates['alice']!.length === 1 && updates['aliceModern']!.length === 1, {
      description: "alice's update in both her sessions",
    });
    await settle();
    expect(updates).toEqual({ alice: [BOARD], aliceModern: [BOARD], bob: [], bobModern: [] });

    await touch(bob);
    await waitUntil(() => updates['bob']!.length === 1 && updates['bobModern']!.length === 1, {
      description: "bob's update in both his sessions",
    });
    await settle();
    expect(updates).toEqual({ alice: [BOARD], aliceModern: [BOARD], bob: [BOARD], bobModern: [BOARD] });
    await bobListen.close();

    // alice leaves in both eras: her upstream subscription ends, bob's stays and still works.
    await alice.unsubscribeResource({ uri: BOARD });
    expect(rs.listeners().sort()).toEqual(['alice', 'bob']);
    await listen.close();
    await waitUntil(() => rs.listeners().length === 1, { description: "alice's upstream listen closed" });
    expect(rs.listeners()).toEqual(['bob']);
    await touch(bob);
    await waitUntil(() => updates['bob']!.length === 2, { description: "bob's second update" });
    await bob.unsubscribeResource({ uri: BOARD });
    await waitUntil(() => rs.listeners().length === 0, { description: "bob's upstream listen closed" });
    expect(harness.core.subscriptions.counts()).toEqual({});
  }, 30_000);

  it("ends a person's subscription when an administrator revokes their connection, and no one else's", async () => {
    const alice = hear('alice2', await v1('alice'));
    const bob = hear('bob2', await v1('bob'));
    await alice.subscribeResource({ uri: BOARD });
    await bob.subscribeResource({ uri: BOARD });
    expect(rs.listeners().sort()).toEqual(['alice', 'bob']);

    await harness.core.connections.revokeCaller('prot', 'client:alice');
    await waitUntil(() => rs.listeners().length === 1, { description: "alice's upstream listen ended" });
    expect(rs.listeners()).toEqual(['bob']);
    expect(harness.core.subscriptions.counts()[BOARD]).toBe(1);

    await touch(bob);
    await waitUntil(() => updates['bob2']!.length === 1, { description: "bob's update after alice's revocation" });
    await settle();
    expect(updates['alice2']).toEqual([]);
    await bob.unsubscribeResource({ uri: BOARD });
  }, 30_000);
});
