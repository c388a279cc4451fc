/**
 * A sandbox refusal explained where the user looks, and lifted by the grant
 * it offers (issue #37), with real bubblewrap, the built `serve`, an SDK
 * client and the built CLI: the hostile fixture's read of a key in its home,
 * write outside its folder and TCP connection are each refused under the
 * default sandbox; the client's error starts with "blocked by the sandbox:
 * ...", the Request log records `sandbox_blocked`, health, `doctor` and
 * `sandbox show` say it with the command that allows it. Granted from the
 * refusal (by the CLI, and by the host contract the UI's Allow button uses),
 * the same call works; revoked, it is refused again.
 *
 * And `sandbox learn` through the built CLI, with real bubblewrap, strace
 * and server-memory: the calls given with their JSON arguments are made, the
 * proposal is printed as a diff (home paths as ~), `--accept` writes it to
 * the server's `sandbox`, a second run finds nothing to change; a secret in
 * the server's env never reaches the output; bad flags are usage errors.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxBlock } from '../../../shared/model/health.js';
import { grantFor } from '../../../shared/model/sandboxGrants.js';
import { sandboxSupport } from '../../../electron/core/backends/index.js';
import { findCommand } from '../../../electron/core/backends/index.js';
import { connectBridge, type BridgeClient } from '../../helpers/bridgeClient.js';
import { BIN, runCli } from '../../helpers/cli.js';
import { fixture, MEMORY, nodeServer, tempDir } from '../../helpers/harness.js';
import { waitUntil } from '../../helpers/processes.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

const TOKEN = 'sandbox-cli-token-0123456789';
const support = await sandboxSupport();
const why = support.available ? '' : ` (skipped: ${support.reason})`;
const strace = findCommand('strace', process.env['PATH'] ?? '');
const mustRun = process.env['CI'] === 'true';
const SLOW = { timeout: 30_000, interval: 200 };
const SECRET = 'sk-cli-learn-canary-77';

describe.skipIf(!support.available && !mustRun)(`a refusal explained, and granted from it${why}`, () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let configPath: string;
  let env: Record<string, string>;
  let serve: SpawnedServer;
  let client: Client;
  let bridge: BridgeClient;
  let listener: Server;
  let port: number;
  /** The server's home, with a key in it; a folder outside everything it may write. */
  let home: string;
  let key: string;
  let outside: string;
  const cli = (...args: string[]) => runCli(args, env);

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name: `jailed__${name}`, arguments: args });
    const text = (result.content as { text?: string }[]).map((block) => block.text ?? '').join('');
    return { ok: result.isError !== true, text };
  };
  const health = async () => {
    const views = await bridge.call('backends.list');
    if (!views.ok) throw new Error(views.error.message);
    return views.result.find((view) => view.health.id === 'jailed')?.health;
  };
  const refusal = async (block: SandboxBlock) =>
    (await health())?.sandbox?.blocked.find((seen) => seen.kind === block.kind && seen.target === block.target);
  const loggedRefusals = async () => {
    const log = await bridge.call('log.query', { backend: 'jailed', outcome: 'sandbox_blocked' });
    if (!log.ok) throw new Error(log.error.message);
    return log.result;
  };
  const ownSandbox = async () =>
    (JSON.parse(await readFile(configPath, 'utf8')) as { mcpServers: Record<string, { sandbox?: unknown }> }).mcpServers
      .jailed?.sandbox;

  beforeAll(async () => {
    dir = await tempDir();
    home = join(dir.path, 'home');
    key = join(home, '.ssh', 'id_rsa');
    outside = join(dir.path, 'outside');
    await mkdir(join(home, '.ssh'), { recursive: true });
    await mkdir(outside, { recursive: true });
    await writeFile(key, 'PRIVATE KEY CANARY\n');
    listener = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as { port: number }).port;
    configPath = join(dir.path, 'config.json');
    env = {
      HOME: dir.path,
      XDG_CONFIG_HOME: join(dir.path, 'xdg'),
      XDG_STATE_HOME: join(dir.path, 'state'),
      SWITCHBOARD_TOKEN: TOKEN,
      SWITCHBOARD_NO_BROWSER: '1',
    };
    await mkdir(join(dir.path, 'xdg'), { recursive: true });
    await writeFile(
      configPath,
      JSON.stringify({
        mcpServers: { jailed: nodeServer(fixture('hostile.mjs'), [], { env: { HOME: home }, sandbox: true }) },
      }),
    );
    serve = await spawnServer(
      [BIN, 'serve', '--config', configPath, '--port', '0', '--no-open'],
      /MCP endpoint: (\S+)/,
      env,
    );
    const url = serve.match[1]!;
    client = new Client({ name: 'sandbox-cli-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    await waitUntil(async () => (await client.listTools()).tools.some((tool) => tool.name === 'jailed__tunnel'), {
      description: 'jailed to be served',
      timeoutMs: 30_000,
    });
    bridge = await connectBridge({ origin: new URL(url).origin, token: TOKEN });
  }, 60_000);
  afterAll(async () => {
    await bridge?.close();
    await client?.close();
    await serve?.stop();
    listener?.close();
    await dir?.cleanup();
  });

  it('a refused read: said in the error, the log, health, doctor and `sandbox show`; allowed by the CLI, then revoked', async () => {
    const sentence = 'blocked by the sandbox: read of ~/.ssh/id_rsa';
    const refused = await call('read_file', { path: key });
    expect(refused.ok).toBe(false);
    expect(refused.text.startsWith(`${sentence}\n`)).toBe(true);
    // Then the server's own error, as it was.
    expect(refused.text).toContain(`ENOENT: no such file or directory, open '${key}'`);
    expect(refused.text).not.toContain('CANARY');

    await expect
      .poll(loggedRefusals, SLOW)
      .toContainEqual(expect.objectContaining({ item: 'read_file', errorCode: 'sandbox_blocked', detail: sentence }));
    expect(await health()).toMatchObject({ sandbox: { home, blocked: [{ kind: 'read', target: key }] } });

    const allow = `mcp-switchboard sandbox allow jailed --read ${key}`;
    const show = await cli('sandbox', 'show', 'jailed');
    expect(show).toMatchObject({ code: 0 });
    expect(show.stdout).toContain('jailed: sandboxed (bubblewrap)');
    expect(show.stdout).toContain(`  ${sentence} (allow with: ${allow})`);

    // doctor starts its own copy, which has not been refused anything; the running one has.
    const doctor = await cli('doctor', '--config', configPath);
    expect(doctor.stdout).toContain(`  ${sentence} (in the running Switchboard) (allow with: ${allow})`);

    const granted = await cli('sandbox', 'allow', 'jailed', '--read', key);
    expect(granted).toMatchObject({ code: 0 });
    expect(granted.stdout).toContain(`jailed: allowed read ${key}; the server restarts with it`);
    expect(await ownSandbox()).toEqual({ read: [key] });
    await expect.poll(() => call('read_file', { path: key }), SLOW).toEqual({ ok: true, text: 'PRIVATE KEY CANARY\n' });
    expect((await cli('sandbox', 'show', 'jailed')).stdout).toContain(`grants:\n  read ${key}\n`);

    expect(await cli('sandbox', 'revoke', 'jailed', '--read', key)).toMatchObject({ code: 0 });
    expect(await ownSandbox()).toBe(true);
    await expect
      .poll(async () => (await call('read_file', { path: key })).text, SLOW)
      .toMatch(/^blocked by the sandbox: read of ~\/\.ssh\/id_rsa\n/);
  }, 120_000);

  it('a refused write outside its folder: allowed through the host contract the Allow button uses, then revoked', async () => {
    const target = join(outside, 'jailed.txt');
    const refused = await call('write_file', { path: target, content: 'x' });
    expect(refused.ok).toBe(false);
    expect(refused.text).toMatch(new RegExp(`^blocked by the sandbox: write to ${target}\\n.*ENOENT`, 's'));
    expect(existsSync(target)).toBe(false);
    await expect
      .poll(loggedRefusals, SLOW)
      .toContainEqual(
        expect.objectContaining({ item: 'write_file', detail: `blocked by the sandbox: write to ${target}` }),
      );
    // The grant offered from the refusal health lists, as the card offers it.
    const block = await refusal({ kind: 'write', target });
    expect(block).toBeDefined();
    const granted = await bridge.call('sandbox.grant', { id: 'jailed', grant: grantFor(block!) });
    expect(granted).toMatchObject({ ok: true, result: { grants: [{ kind: 'write', target }] } });
    await expect
      .poll(() => call('write_file', { path: target, content: 'x' }), SLOW)
      .toEqual({
        ok: true,
        text: `wrote ${target}`,
      });
    expect(await readFile(target, 'utf8')).toBe('x');

    expect(await bridge.call('sandbox.revoke', { id: 'jailed', grant: { kind: 'write', target } })).toMatchObject({
      ok: true,
      result: { grants: [] },
    });
    const again = join(outside, 'again.txt');
    await expect
      .poll(async () => (await call('write_file', { path: again, content: 'x' })).text, SLOW)
      .toMatch(/^blocked by the sandbox: write to /);
    expect(existsSync(again)).toBe(false);
  }, 120_000);

  it('a refused TCP connection: allowed by the CLI (through its host list), then revoked', async () => {
    const target = `127.0.0.1:${port}`;
    const refused = await call('tunnel', { host: '127.0.0.1', port });
    expect(refused.ok).toBe(false);
    expect(refused.text.startsWith(`blocked by the sandbox: connection to ${target}\n`)).toBe(true);
    await expect
      .poll(loggedRefusals, SLOW)
      .toContainEqual(
        expect.objectContaining({ item: 'tunnel', detail: `blocked by the sandbox: connection to ${target}` }),
      );
    expect((await cli('sandbox', 'show', 'jailed')).stdout).toContain(
      `(allow with: mcp-switchboard sandbox allow jailed --host ${target})`,
    );
    expect(await cli('sandbox', 'allow', 'jailed', '--host', target)).toMatchObject({ code: 0 });
    expect(await ownSandbox()).toEqual({ network: [target] });
    await expect
      .poll(() => call('tunnel', { host: '127.0.0.1', port }), SLOW)
      .toEqual({
        ok: true,
        text: `connected to ${target}`,
      });

    expect(await cli('sandbox', 'revoke', 'jailed', '--host', target)).toMatchObject({ code: 0 });
    expect(await ownSandbox()).toBe(true);
    await expect
      .poll(async () => (await call('tunnel', { host: '127.0.0.1', port })).text, SLOW)
      .toMatch(new RegExp(`^blocked by the sandbox: connection to ${target}\\n`));
  }, 120_000);

  it('says what a server points at outside its sandbox before turning it on, and what is wrong with a command', async () => {
    const memoryFile = join(home, 'notes.json');
    const saved = JSON.parse(await readFile(configPath, 'utf8')) as { mcpServers: Record<string, unknown> };
    saved.mcpServers['notes'] = nodeServer(fixture('hostile.mjs'), [], {
      env: { HOME: home, MEMORY_FILE_PATH: memoryFile },
      sandbox: false,
    });
    await writeFile(configPath, JSON.stringify(saved));
    await waitUntil(async () => (await cli('sandbox', 'show', 'notes')).code === 0, { timeoutMs: 20_000 });
    const allow = `mcp-switchboard sandbox allow notes --write ${memoryFile}`;
    expect((await cli('sandbox', 'show', 'notes')).stdout).toContain(
      `outside its sandbox:\n  MEMORY_FILE_PATH = ${memoryFile} is outside its sandbox (allow with: ${allow})\n`,
    );
    const on = await cli('sandbox', 'on', 'notes');
    expect(on).toMatchObject({ code: 0 });
    expect(on.stderr).toContain(
      `warning: MEMORY_FILE_PATH = ${memoryFile} is outside its sandbox (allow with: ${allow})`,
    );
    expect(await cli('sandbox', 'allow', 'notes', '--write', memoryFile)).toMatchObject({ code: 0 });
    expect((await cli('sandbox', 'show', 'notes')).stdout).not.toContain('outside its sandbox');

    expect(await cli('sandbox', 'allow', 'notes')).toMatchObject({ code: 2 });
    expect(await cli('sandbox', 'frobnicate', 'notes')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('no sandbox subcommand "frobnicate"'),
    });
    // One spec lists learn's options too; each subcommand takes only its own.
    expect(await cli('sandbox', 'show', 'notes', '--window', '2s')).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('sandbox show does not take --window'),
    });
  }, 90_000);
  it('refuses to learn a quarantined server (it would run with your files visible), in the CLI and the UI alike', async () => {
    const held = await bridge.call('reviews.quarantine', { id: 'jailed' });
    expect(held.ok).toBe(true);
    try {
      const learned = await cli('sandbox', 'learn', 'jailed', '--config', configPath);
      expect(learned.code).toBe(1);
      expect(learned.stderr).toContain('"jailed" is quarantined: learning runs it with your files visible');
      const refused = await bridge.call('sandbox.learn', { id: 'jailed' });
      expect(refused.ok ? undefined : refused.error.code).toBe('policy_denied');
    } finally {
      const approved = await bridge.call('reviews.approveServer', { id: 'jailed', confirmHigh: true });
      expect(approved.ok).toBe(true);
    }
  }, 90_000);
});

describe.skipIf((!support.available || !strace) && !mustRun)('sandbox learn', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let configPath: string;
  let env: Record<string, string>;
  const run = (...args: string[]) => runCli(['sandbox', 'learn', ...args, '--config', configPath], env);

  beforeAll(async () => {
    dir = await tempDir();
    const home = join(dir.path, 'home');
    await mkdir(join(home, 'notes'), { recursive: true });
    configPath = join(dir.path, 'config.json');
    env = { HOME: home, XDG_STATE_HOME: join(dir.path, 'state'), XDG_CONFIG_HOME: join(dir.path, 'config') };
    const memory = {
      command: process.execPath,
      args: [MEMORY],
      env: { MEMORY_FILE_PATH: join(home, 'notes', 'memory.json'), API_TOKEN: SECRET },
    };
    await writeFile(configPath, JSON.stringify({ mcpServers: { memory } }, null, 2));
  });
  afterAll(() => dir.cleanup());

  it('makes the calls, prints the proposal as a diff, and --accept saves it', async () => {
    const entities = JSON.stringify({ entities: [{ name: 'a', entityType: 't', observations: ['o'] }] });
    const learned = await run(
      'memory',
      '--call',
      'create_entities',
      entities,
      '--call',
      'read_graph',
      '--window',
      '100ms',
    );
    expect(learned.stderr).toBe('');
    expect(learned.code).toBe(0);
    expect(learned.stdout).toMatch(/^Learned "memory" in \d+\.\d s \(9 tools, 1 resources, 0 prompts\)\.\n/);
    expect(learned.stdout).toContain(
      [
        '  call create_entities: ok',
        '  call read_graph: ok',
        '+ sandbox: on',
        'read: (nothing beyond the defaults)',
        'write:',
        '  + ~/notes',
        'network: (nothing beyond the defaults)',
        'Run again with --accept',
      ].join('\n'),
    );
    expect(learned.stdout).not.toContain(SECRET);
    expect(JSON.parse(await readFile(configPath, 'utf8')).mcpServers.memory.sandbox).toBeUndefined();

    const accepted = await run('memory', '--call', 'read_graph', '--call=create_entities', entities, '--accept');
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain('Accepted: "memory" now runs sandboxed with this grant.');
    expect(JSON.parse(await readFile(configPath, 'utf8')).mcpServers.memory.sandbox).toEqual({
      read: [],
      write: ['~/notes'],
      network: 'none',
    });

    const again = await run('memory', '--call', 'read_graph', '--json');
    const view = JSON.parse(again.stdout) as { diff: { unchanged: boolean; write: unknown[] } };
    expect(view.diff.unchanged).toBe(true);
    expect(view.diff.write).toEqual([{ mark: '=', value: '~/notes' }]);
    expect(again.stdout).not.toContain(SECRET);
  }, 120_000);

  it('refuses bad flags as usage errors', async () => {
    const noJson = await run('memory', '--call', 'read_graph', '[1]');
    expect(noJson.code).toBe(2);
    const badJson = await run('memory', '--call', 'create_entities', '{nope');
    expect(badJson).toMatchObject({ code: 2 });
    expect(badJson.stderr).toContain('--call create_entities: its arguments must be a JSON object');
    const window = await run('memory', '--window', 'soon');
    expect(window.stderr).toContain('--window takes a duration such as 30s');
    expect((await run('memory', '--replace')).stderr).toContain('--replace goes with --accept');
    const unknown = await run('nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no server "nope"');
  }, 60_000);
});
