/**
 * The OAuth and secret commands of the built `mcp-switchboard` CLI, as a user
 * runs them, against the fixture authorization server and protected MCP
 * server, with a real keychain (service chosen by SWITCHBOARD_KEYCHAIN_SERVICE).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeytarStore } from '../../../electron/core/platform/index.js';
import { keychainForTests } from '../../helpers/keychain.js';
import { startAuthServer, type AuthServer } from '../../fixtures/oauth/authServer.mjs';
import { startProtectedServer, type ProtectedServer } from '../../fixtures/oauth/protectedServer.mjs';
import { BIN, runCli } from '../../helpers/cli.js';
import { EVERYTHING, nodeServer, tempDir } from '../../helpers/harness.js';
import { completeAuthorization } from '../../helpers/oauthBrowser.js';

const SERVICE = `mcp-switchboard-cli-test-${process.pid}`;
const store = new KeytarStore({ service: SERVICE, timeoutMs: 5000 });
const { status, required, titleSuffix: skipReason } = await keychainForTests(store);

describe.skipIf(!status.available && !required)(`OAuth and secret commands${skipReason}`, () => {
  let as: AuthServer;
  let rs: ProtectedServer;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let env: Record<string, string>;
  let config: string;

  beforeAll(async () => {
    as = await startAuthServer();
    rs = await startProtectedServer({ issuer: as.issuer });
    dir = await tempDir();
    config = join(dir.path, 'config.json');
    env = {
      XDG_CONFIG_HOME: join(dir.path, 'xdg'),
      XDG_STATE_HOME: join(dir.path, 'state'),
      SWITCHBOARD_KEYCHAIN_SERVICE: SERVICE,
      SWITCHBOARD_TOKEN: '',
    };
    await writeFile(
      config,
      JSON.stringify({ mcpServers: { prot: { url: rs.url }, local: nodeServer(EVERYTHING, ['stdio']) } }),
    );
  });

  afterAll(async () => {
    for (const name of await store.list().catch(() => [])) await store.delete(name);
    await rs?.close();
    await as?.close();
    await dir?.cleanup();
  });

  it('secret set reads the value from stdin; list shows names only; delete removes it', async () => {
    const value = `from-stdin-${Date.now()}`;
    const set = await runCli(['secret', 'set', 'api-key'], env, `${value}\n`);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('Stored secret "api-key"');
    expect(set.stdout + set.stderr).not.toContain(value);
    expect(await store.get('api-key')).toBe(value);
    const list = await runCli(['secret', 'list'], env);
    expect(list.stdout.trim().split('\n')).toContain('api-key');
    expect(list.stdout).not.toContain(value);
    const reserved = await runCli(['secret', 'set', 'oauth:prot:tokens'], env, 'x');
    expect(reserved.code).toBe(2);
    const removed = await runCli(['secret', 'delete', 'api-key'], env);
    expect(removed.code).toBe(0);
    expect(await store.get('api-key')).toBeUndefined();
  });

  it('auth-status, authorize --no-browser, doctor and sign-out', async () => {
    const before = await runCli(['auth-status', '--config', config], env);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toBe('prot: not signed in (run `mcp-switchboard authorize prot`)\n');

    const doctorBefore = await runCli(['doctor', '--config', config], env);
    expect(doctorBefore.code).toBe(1);
    expect(doctorBefore.stdout).toMatch(/^prot: needs-authorization: .*requires authorization/m);
    expect(doctorBefore.stdout).toMatch(/^local: up \(\d+ tools\)/m);

    const child = spawn(process.execPath, [BIN, 'authorize', 'prot', '--no-browser', '--config', config], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const found = /^ {2}(http\S+)$/m.exec(stdout);
        if (found?.[1]) resolve(found[1]);
      });
      child.once('exit', () => reject(new Error(`authorize exited early: ${stdout}${stderr}`)));
    });
    const exited = once(child, 'exit');
    const page = await completeAuthorization(url);
    expect(page.body).toContain('You can close this window');
    const [code] = (await exited) as [number];
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/"prot" is authorized: authorized, expires .*; status up/);

    const after = await runCli(['auth-status', '--config', config, '--json'], env);
    const entries = JSON.parse(after.stdout) as { id: string; auth: { state: string; expiresAt?: string } }[];
    expect(entries).toEqual([{ id: 'prot', auth: expect.objectContaining({ state: 'authorized' }) as unknown }]);
    expect(Date.parse(entries[0]?.auth.expiresAt ?? '')).toBeGreaterThan(Date.now());

    const doctor = await runCli(['doctor', '--config', config], env);
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
    expect(doctor.stdout).toMatch(/^prot: up \(2 tools\) \[auth: authorized/m);

    const revocations = as.stats.revocations;
    const signOut = await runCli(['sign-out', 'prot', '--config', config], env);
    expect(signOut.code, signOut.stderr).toBe(0);
    expect(signOut.stdout).toContain('tokens revoked and deleted');
    expect(as.stats.revocations).toBeGreaterThan(revocations);
    expect((await runCli(['auth-status', '--config', config], env)).stdout).toBe(
      'prot: not signed in (run `mcp-switchboard authorize prot`)\n',
    );
  });
});
