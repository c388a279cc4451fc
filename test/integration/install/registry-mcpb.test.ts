/**
 * A registry entry whose package is an MCP bundle: the CLI downloads it,
 * checks its fileSha256 before reading it, installs it like a local bundle
 * and records the registry as its source; a wrong hash is refused with
 * nothing left behind.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { mcpbEntry, sha256Of, toolsBundle } from '../../helpers/bundles.js';
import { tempDir } from '../../helpers/harness.js';
import { startLocalRegistry, type LocalRegistry } from '../../helpers/localRegistry.js';

let registry: LocalRegistry;
let dir: Awaited<ReturnType<typeof tempDir>>;
let env: Record<string, string>;
let configPath: string;
let bundle: Buffer;
/** The files the registry serves (more are added by the update tests). */
let files: Record<string, Buffer>;

const entry = (sha: string, name: string, version?: string, file?: string) =>
  mcpbEntry(registry.url, name, sha, version, file);

beforeEach(async () => {
  bundle = await toolsBundle('0.2.0', 'one,two,three');
  files = { 'tools.mcpb': bundle };
  registry = await startLocalRegistry([], files);
  registry.publish(entry(sha256Of(bundle), 'io.github.switchboard-tests/tools'));
  registry.publish(entry('0'.repeat(64), 'io.github.switchboard-tests/tampered'));
  dir = await tempDir();
  configPath = join(dir.path, 'config.json');
  await writeFile(configPath, JSON.stringify({ registry: { url: registry.url }, mcpServers: {} }));
  env = { XDG_CONFIG_HOME: join(dir.path, 'xdg'), XDG_STATE_HOME: join(dir.path, 'state') };
});
afterEach(async () => {
  await registry.close();
  await dir.cleanup();
});

const stateDir = () => join(dir.path, 'state', 'mcp-switchboard');
const servers = async () =>
  (JSON.parse(await readFile(configPath, 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> })
    .mcpServers;

it('downloads the bundle, checks its hash, installs and checks it, with the registry as its source', async () => {
  const result = await runCli(['add', 'io.github.switchboard-tests/tools', '--config', configPath], env);
  expect(result.stderr).toBe('');
  expect(result.stdout).toMatch(/^added tools \(io\.github\.switchboard-tests\/tools@0\.2\.0, bundle http/);
  expect(result.stdout).toContain('checked: it started and lists 3 tools');
  const directory = join(stateDir(), 'bundles', 'tools');
  expect((await servers())['tools']).toMatchObject({
    command: 'node',
    args: [join(directory, 'server', 'index.mjs')],
    source: { registry: registry.url, name: 'io.github.switchboard-tests/tools', version: '0.2.0' },
  });
  expect(await readdir(join(stateDir(), 'downloads'))).toEqual([]); // the download is removed once unpacked
}, 60_000);

it('a bundle whose hash does not match is refused before it is read, and nothing is left', async () => {
  const result = await runCli(['add', 'io.github.switchboard-tests/tampered', '--config', configPath], env);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(`fileSha256 does not match (expected ${'0'.repeat(64)}, got `);
  expect(await servers()).toEqual({});
  expect(await readdir(join(stateDir(), 'bundles')).catch(() => [])).toEqual([]);
  expect(await readdir(join(stateDir(), 'downloads')).catch(() => [])).toEqual([]);
});

describe('update of a backend installed from an mcpb package', () => {
  const NAME = 'io.github.switchboard-tests/tools';
  const bundles = () => readdir(join(stateDir(), 'bundles'));
  const cli = (args: string[]) => runCli([...args, '--config', configPath], env);

  it('downloads the new version, checks its hash, unpacks it beside the old, and removes the old once it runs', async () => {
    expect((await cli(['add', NAME])).code).toBe(0);
    const next = await toolsBundle('0.3.0', 'one,two,three,four');
    files['tools-0.3.0.mcpb'] = next;
    registry.publish(entry(sha256Of(next), NAME, '0.3.0', 'tools-0.3.0.mcpb'));
    const dry = await cli(['update', 'tools', '--dry-run']);
    expect(dry.stdout).toContain('tools: 0.2.0 -> 0.3.0');
    expect(dry.stdout).toContain('not applied (--dry-run)');
    expect(await bundles()).toEqual(['tools']);

    const updated = await cli(['update', 'tools']);
    expect(updated.stderr).toBe('');
    expect(updated.stdout).toContain('version: 0.2.0 -> 0.3.0');
    expect(updated.stdout).toContain('updated');
    const directory = join(stateDir(), 'bundles', 'tools-0.3.0');
    expect((await servers())['tools']).toMatchObject({
      args: [join(directory, 'server', 'index.mjs')],
      cwd: directory,
      env: { FIXTURE_TOOLS: 'one,two,three,four' },
      source: { registry: registry.url, name: NAME, version: '0.3.0' },
    });
    expect(await bundles()).toEqual(['tools-0.3.0']); // the old folder is gone
    expect(await readdir(join(stateDir(), 'downloads'))).toEqual([]);
    expect((await cli(['update', 'tools'])).stdout).toContain('tools is up to date (0.3.0)');
  }, 60_000);

  it('a new version with a wrong hash, or one that does not start, leaves the old one as it was', async () => {
    expect((await cli(['add', NAME])).code).toBe(0);
    const before = await servers();
    const next = await toolsBundle('0.3.0', 'one', 'server/missing.mjs');
    files['tools-0.3.0.mcpb'] = next;
    registry.publish(entry('1'.repeat(64), NAME, '0.3.0', 'tools-0.3.0.mcpb'));
    const tampered = await cli(['update', 'tools']);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toContain('fileSha256 does not match');
    registry.publish(entry(sha256Of(next), NAME, '0.3.1', 'tools-0.3.0.mcpb'));
    const broken = await cli(['update', 'tools']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('tools did not start');
    expect(await servers()).toEqual(before);
    expect(await bundles()).toEqual(['tools']);
    expect(await readdir(join(stateDir(), 'bundles', 'tools', 'server'))).toContain('index.mjs');
  }, 60_000);
});
