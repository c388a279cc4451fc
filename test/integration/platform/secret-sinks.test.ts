/**
 * Every sink scanned for every secret after a run that echoes them: the real
 * `serve` (a child process) with a stdio and an HTTP fixture that echo what
 * they were given (env, `Authorization: Bearer` header, URL query), capture
 * on, calls from an MCP client and from the UI's Try it (the bridge), a
 * backend whose failure quotes its secret; then `doctor` and `auth-status`
 * (plain and `--json`) and `check-config` on the same config. No secret may
 * appear in the audit log, a bridge frame, an MCP answer of a captured call's
 * audit, serve's log, any CLI output, or the server approvals file
 * (`server-approvals.json`, which keeps each approved launch line masked); the
 * echoes themselves must arrive (as `[redacted]`), so the scan cannot pass by
 * nothing having been echoed.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBridge } from '../../helpers/bridgeClient.js';
import { BIN, runCli } from '../../helpers/cli.js';
import { fixture, nodeServer, tempDir } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

const BEARER = 'plain-bearer-credential-5f3a9c1e77';
const URL_SECRET = 'url-query-secret-2b8d61';
const LEAKY = 'leaky-env-token-81c2d4aa';
const OWN_ENV = 'serve-own-api-token-3e9a0c';
const SHAPED = `ghp_${'A1b2C3d4E5'.repeat(4)}`;
const ARG_SECRET = 'argument-api-key-7d1e09';
const SECRETS = { BEARER, URL_SECRET, LEAKY, OWN_ENV, SHAPED, ARG_SECRET };

const FRONTEND_TOKEN = 'frontend-token-for-sinks-test';
let dir: Awaited<ReturnType<typeof tempDir>>;
let env: Record<string, string>;
let configPath: string;
let remote: SpawnedServer;
let serve: SpawnedServer | undefined;
let serveOutput = '';

function expectClean(sink: string, text: string): void {
  for (const [name, value] of Object.entries(SECRETS)) {
    expect(text.includes(value), `${sink} contains ${name}`).toBe(false);
  }
}

beforeAll(async () => {
  dir = await tempDir();
  remote = await spawnServer([fixture('echo-secrets.mjs'), 'http'], /LISTENING (\S+)/, { PORT: '0' });
  env = {
    HOME: dir.path,
    XDG_CONFIG_HOME: join(dir.path, 'config'),
    XDG_STATE_HOME: join(dir.path, 'state'),
    SWITCHBOARD_TOKEN: FRONTEND_TOKEN,
    SWITCHBOARD_NO_BROWSER: '1',
    SERVE_API_TOKEN: OWN_ENV,
    UNLISTED_VALUE: SHAPED,
  };
  configPath = join(dir.path, 'config.json');
  const leakyScript = 'console.error("refused: LEAKY_TOKEN=" + process.env.LEAKY_TOKEN); process.exit(3)';
  await writeFile(
    configPath,
    JSON.stringify({
      proxy: { reconnectInitialMs: 200, reconnectMaxMs: 400 },
      policy: { backends: { local: { capture: true }, web: { capture: true } } },
      mcpServers: {
        local: nodeServer(fixture('echo-secrets.mjs'), ['--api-key', ARG_SECRET], { env: { LEAKY_TOKEN: LEAKY } }),
        web: { url: `${remote.match[1]}?api_key=${URL_SECRET}`, headers: { Authorization: `Bearer ${BEARER}` } },
        broken: { command: process.execPath, args: ['-e', leakyScript], env: { LEAKY_TOKEN: LEAKY } },
      },
    }),
  );
}, 30_000);

afterAll(async () => {
  await serve?.stop();
  await remote?.stop();
  await dir?.cleanup();
});

describe('one redaction at every sink', () => {
  it('keeps every secret out of the audit log, the bridge, the MCP answers logged and serve’s log', async () => {
    serve = await spawnServer([BIN, 'serve', '--config', configPath, '--port', '0'], /MCP endpoint: (\S+)/, env);
    serveOutput = serve.match.input ?? '';
    serve.child.stdout?.on('data', (chunk: Buffer) => (serveOutput += chunk.toString()));
    serve.child.stderr?.on('data', (chunk: Buffer) => (serveOutput += chunk.toString()));
    const url = serve.match[1]!;
    const client = new Client({ name: 'sinks-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${FRONTEND_TOKEN}` } },
      }),
    );
    await waitUntil(async () => (await client.listTools()).tools.length >= 3, { timeoutMs: 15_000 });
    const bridge = await connectBridge({ origin: new URL(url).origin, token: FRONTEND_TOKEN });
    try {
      const calls = [
        { name: 'web__echo_request', arguments: {} },
        ...['LEAKY_TOKEN', 'SERVE_API_TOKEN', 'UNLISTED_VALUE'].map((name) => ({
          name: 'local__echo_env',
          arguments: { name },
        })),
      ];
      for (const call of calls) {
        await client.callTool(call);
        // The UI's Try it answer, over the bridge: echoed, but redacted.
        const outcome = await bridge.call('catalog.callTool', call);
        expect(outcome.ok).toBe(true);
        expect(JSON.stringify(outcome)).toContain('[redacted]');
      }
      const backends = await bridge.call('backends.list');
      expect(JSON.stringify(backends)).toContain('LEAKY_TOKEN=[redacted]');
      expectClean('bridge frames', bridge.received.join('\n'));
    } finally {
      await bridge.close();
      await client.close();
    }
    // Let the broken backend retry a few times so its failure is logged.
    await waitUntil(async () => /broken/.test(serveOutput), { timeoutMs: 10_000 });
    await serve.stop();
    serve = undefined;
    expectClean('serve output', serveOutput);
    const auditDir = join(dir.path, 'state', 'mcp-switchboard', 'audit');
    const files = await readdir(auditDir);
    const audit = (await Promise.all(files.map((file) => readFile(join(auditDir, file), 'utf8')))).join('');
    expect(audit).toContain('echo_request');
    expect(audit).toContain('[redacted]');
    expectClean('audit.jsonl', audit);
    // Every server of the first start was approved: its launch line is kept, masked.
    const approvals = await readFile(join(dir.path, 'config', 'mcp-switchboard', 'server-approvals.json'), 'utf8');
    expect(JSON.parse(approvals)).toMatchObject({
      version: 2,
      servers: {
        local: { launch: { args: [expect.any(String), '--api-key', '****'] } },
        web: { launch: { url: expect.stringContaining('api_key=****') } },
      },
    });
    expectClean('server-approvals.json', approvals);
  }, 60_000);

  it('keeps them out of doctor, auth-status and check-config output, --json included', async () => {
    for (const args of [
      ['doctor', '--json'],
      ['doctor'],
      ['auth-status'],
      ['auth-status', '--json'],
      ['check-config'],
    ]) {
      const result = await runCli([...args, '--config', configPath], env);
      expectClean(`${args.join(' ')} stdout`, result.stdout);
      expectClean(`${args.join(' ')} stderr`, result.stderr);
      if (args[0] === 'doctor') expect(result.stdout).toContain('LEAKY_TOKEN=[redacted]');
      // The fixture's line on stdout that is not JSON-RPC, quoted by the health warning: redacted too.
      if (args.join(' ') === 'doctor') expect(result.stdout).toContain('on stdout: "debug LEAKY_TOKEN=[redacted]"');
    }
  }, 60_000);
});
