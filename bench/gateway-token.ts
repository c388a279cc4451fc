// What gateway mode's token check adds to a call (issue 27: under 0.2 ms at p50 with a cached JWKS).
// Two measurements in one run: (1) the check alone, in this process: the SDK's bearer check around
// our TokenVerifier (jose, the issuer's JWKS fetched once and cached), on a fresh ES256 token each
// time it is shown again; (2) the same 2026-07-28 tools/call through two real `serve`s side by side,
// one in laptop mode (its own bearer token) and one in gateway mode (an access token), interleaved
// in blocks so drift hits both alike. Saved to bench/results/gateway.json.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GatewaySchema } from '../electron/core/platform/index.js';
import { loadTokenCheck } from '../electron/core/frontend/index.js';
import { startTokenIssuer } from '../test/helpers/tokenIssuer.js';
import { connectHttp, realClient } from './benchClients.js';
import { interleaved, printTable, spawnUntilLine, stopChild, summarize, timeSequential } from './lib.js';
import type { LatencyStats, Spawned } from './lib.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin/mcp-switchboard.js');
const FIXTURE = join(ROOT, 'test/fixtures/servers/configurable.mjs');
const RESULTS = join(ROOT, 'bench/results/gateway.json');
const CHECKS = 5000;
const CALLS = 600;
const BLOCK = 25;
const TARGET_MS = 0.2;

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const ms = (value: number): string => value.toFixed(3);

/** (1) The check alone: one verifier, a cached JWKS, a token it has not seen before each round. */
async function checkAlone(issuer: Awaited<ReturnType<typeof startTokenIssuer>>): Promise<LatencyStats> {
  const resource = 'https://mcp.example.com/mcp';
  const gateway = GatewaySchema.parse({ resource, authorizationServers: [issuer.issuer] });
  const { check: verify, close } = (await loadTokenCheck()).createTokenCheck(gateway);
  const tokens = await Promise.all(
    Array.from({ length: 50 }, (_, i) => issuer.sign({ sub: `user-${i}`, aud: resource, scope: 'mcp' })),
  );
  const check = (i: number) => verify(`Bearer ${tokens[i % tokens.length]!}`);
  for (let i = 0; i < 200; i++) await check(i); // discovery, the JWKS fetch, JIT
  let i = 0;
  const samples = await timeSequential(CHECKS, () => check(i++));
  close();
  return summarize(samples);
}

/** Starts `serve` on `config` at `port`; resolves once it prints its endpoint. */
async function startServe(name: string, home: string, config: unknown, port: number): Promise<Spawned> {
  const dir = join(home, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'config.json'), JSON.stringify(config));
  const env = {
    ...process.env,
    SWITCHBOARD_TOKEN: 'bench-token-0123456789abcdef',
    XDG_CONFIG_HOME: dir,
    XDG_STATE_HOME: join(dir, 'state'),
    SWITCHBOARD_NO_BROWSER: '1',
  };
  const args = [BIN, 'serve', '--config', join(dir, 'config.json'), '--port', String(port), '--quiet'];
  const { proc } = await spawnUntilLine(name, process.execPath, args, {
    env,
    cwd: ROOT,
    pattern: /MCP endpoint: (\S+)/,
    timeoutMs: 60_000,
  });
  return proc;
}

async function main(): Promise<void> {
  const issuer = await startTokenIssuer();
  const home = await mkdtemp(join(tmpdir(), 'switchboard-bench-gateway-'));
  const children: Spawned[] = [];
  try {
    const alone = await checkAlone(issuer);
    const backend = { notes: { command: process.execPath, args: [FIXTURE], env: { FIXTURE_TOOLS: 'echo' } } };
    const [laptopPort, gatewayPort] = [await freePort(), await freePort()];
    const resource = `http://127.0.0.1:${gatewayPort}/mcp`;
    const gateway = { resource, authorizationServers: [issuer.issuer], defaultProfile: 'everyone' };
    children.push(await startServe('laptop', home, { mcpServers: backend }, laptopPort));
    children.push(
      await startServe(
        'gateway',
        home,
        { mcpServers: backend, gateway, policy: { clients: { everyone: { name: 'Everyone' } } } },
        gatewayPort,
      ),
    );
    const laptop = await connectHttp(
      realClient('2026'),
      `http://127.0.0.1:${laptopPort}/mcp`,
      'bench-token-0123456789abcdef',
    );
    const token = await issuer.sign({
      sub: 'bench',
      aud: resource,
      scope: 'mcp',
      exp: Math.floor(Date.now() / 1000) + 3600,
    });
    const signedIn = await connectHttp(realClient('2026'), resource, token);
    const call = (client: typeof laptop) => () => client.callTool({ name: 'notes__echo', arguments: { n: 1 } });
    await interleaved(100, BLOCK, call(laptop), call(signedIn)); // warm-up
    const [plain, withToken] = await interleaved(CALLS, BLOCK, call(laptop), call(signedIn));
    await Promise.allSettled([laptop.close(), signedIn.close()]);
    const row = (label: string, stats: LatencyStats) => [label, ms(stats.p50), ms(stats.p99), ms(stats.mean)];
    printTable(
      'gateway: what a token check adds',
      ['measurement', 'p50 ms', 'p99 ms', 'mean ms'],
      [
        row(`token check alone (${CHECKS}, cached JWKS)`, alone),
        row(`tools/call, laptop mode (${CALLS})`, plain),
        row(`tools/call, gateway mode (${CALLS})`, withToken),
      ],
    );
    const added = withToken.p50 - plain.p50;
    console.log(
      `\ntoken check p50 ${ms(alone.p50)} ms (target < ${TARGET_MS} ms: ${alone.p50 < TARGET_MS ? 'met' : 'NOT met'}); ` +
        `a call's p50 in gateway mode minus laptop mode: ${ms(added)} ms`,
    );
    await mkdir(join(ROOT, 'bench/results'), { recursive: true });
    await writeFile(
      RESULTS,
      JSON.stringify({ date: new Date().toISOString(), alone, plain, withToken, added }, null, 2),
    );
  } finally {
    await Promise.allSettled(children.map((child) => stopChild(child.child)));
    await issuer.close();
    await rm(home, { recursive: true, force: true });
  }
}

await main();
