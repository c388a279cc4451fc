/**
 * Limits across replicas, with real parts: one Redis (append-only, as
 * docs/deploy.md configures it), three `serve` replicas of one gateway-mode
 * config (people's access tokens signed by a test issuer whose JWKS every
 * replica fetches), and 2026-07-28 SDK clients of each person on every
 * replica. A per-person, per-tool limit lets exactly N calls pass in its
 * window, whichever replica each lands on and however many run at once, with
 * the rule naming the tool as people see it (`fx__get.weather`: the server
 * and the tool's own name; clients call it `fx__get_weather`) or by its
 * server's own name (`read`); each person has a bucket of their own.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../helpers/processes.js';
import { redisMissing, startRedis, type RedisServer } from '../../helpers/redisServer.js';
import { startServeHttp, type ServedHttp } from '../../helpers/serveHttp.js';
import { freePort } from '../../helpers/spawnServer.js';
import { startTokenIssuer, type TokenIssuer } from '../../helpers/tokenIssuer.js';

const missing = redisMissing();
if (missing && process.env['CI']) throw new Error(missing);

const FIXTURE = new URL('../../fixtures/servers/configurable.mjs', import.meta.url).pathname;
/** Calls of `fx__get_weather` each person of `eng` may make a minute; of `read`, carol's. */
const WEATHER = 5;
const READS = 3;

describe.skipIf(missing !== undefined)('limits across three replicas (Redis)', () => {
  let redis: RedisServer;
  let issuer: TokenIssuer;
  let replicas: ServedHttp[] = [];
  const clients: Client[] = [];
  let resource = '';

  /** One 2026-07-28 client of `person` on each replica. */
  const personOnEvery = async (person: string, groups: string[]): Promise<Client[]> => {
    const token = await issuer.sign({ sub: `u-${person}`, email: `${person}@example.com`, groups, aud: resource });
    return Promise.all(
      replicas.map(async (replica) => {
        const client = new Client(
          { name: `limits-${person}`, version: '1.0.0' },
          { versionNegotiation: { mode: { pin: '2026-07-28' } } },
        );
        const requestInit = { headers: { Authorization: `Bearer ${token}` } };
        await client.connect(new StreamableHTTPClientTransport(new URL(replica.url), { requestInit }));
        clients.push(client);
        return client;
      }),
    );
  };

  /** `n` calls of `name` at once, dealt round the replicas: how many passed, and whether every other was rate_limited. */
  const burst = async (on: Client[], name: string, n: number): Promise<{ passed: number; refused: number }> => {
    const outcomes = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        on[i % on.length]!.callTool({ name, arguments: {} }).then(
          (result) => (result.isError ? `error: ${JSON.stringify(result.content)}` : 'passed'),
          (error: unknown) => (/rate_limited/.test(String(error)) ? 'refused' : `error: ${String(error)}`),
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.startsWith('error'))).toEqual([]);
    return {
      passed: outcomes.filter((outcome) => outcome === 'passed').length,
      refused: outcomes.filter((outcome) => outcome === 'refused').length,
    };
  };

  beforeAll(async () => {
    [redis, issuer] = await Promise.all([startRedis(), startTokenIssuer()]);
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    // The balancer's URL a team would publish; every replica is on loopback, which the Host check accepts.
    resource = `http://127.0.0.1:${ports[0]}/mcp`;
    const config = {
      cluster: { redis: { url: redis.url, keyPrefix: 'limits-test:' } },
      mcpServers: {
        fx: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_TOOLS: 'get.weather,read' } },
      },
      gateway: { resource, authorizationServers: [issuer.issuer], defaultProfile: 'everyone' },
      policy: {
        clients: { everyone: { name: 'Everyone' } },
        limits: [
          // The server's ID and the tool's own name, joined as the catalog joins them.
          { match: { group: 'eng' }, server: 'fx', tool: 'fx__get.weather', rate: { points: WEATHER, perSeconds: 60 } },
          // By the server's own name.
          {
            match: { principal: 'carol@example.com' },
            server: 'fx',
            tool: 'read',
            rate: { points: READS, perSeconds: 60 },
          },
        ],
      },
    };
    replicas = await Promise.all(ports.map((port) => startServeHttp(config, { port })));
  }, 60_000);

  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await Promise.allSettled(replicas.map((replica) => replica.stop()));
    await Promise.allSettled([redis?.stop(), issuer?.close()]);
  });

  it('lets exactly N calls of a tool named as clients see it pass per person, wherever they land', async () => {
    const [alice, bob] = await Promise.all([personOnEvery('alice', ['eng']), personOnEvery('bob', ['eng'])]);
    for (const client of alice)
      await waitUntil(async () => (await client.listTools()).tools.some((tool) => tool.name === 'fx__get_weather'), {
        timeoutMs: 15_000,
        description: 'fx__get_weather listed on every replica',
      });
    expect(await burst(alice, 'fx__get_weather', 4 * WEATHER)).toEqual({ passed: WEATHER, refused: 3 * WEATHER });
    // Each person's bucket is their own; another tool of the server is not counted.
    expect(await burst(bob, 'fx__get_weather', 3 * WEATHER)).toEqual({ passed: WEATHER, refused: 2 * WEATHER });
    expect(await burst(alice, 'fx__read', 6)).toEqual({ passed: 6, refused: 0 });
  });

  it("lets exactly N calls of a tool named by its server's own name pass, wherever they land", async () => {
    const carol = await personOnEvery('carol', ['sales']);
    expect(await burst(carol, 'fx__read', 4 * READS)).toEqual({ passed: READS, refused: 3 * READS });
    // Not in eng: the weather rule is not hers.
    expect(await burst(carol, 'fx__get_weather', 2 * WEATHER)).toEqual({ passed: 2 * WEATHER, refused: 0 });
  });
});
