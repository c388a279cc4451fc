/**
 * A registry entry whose package is an MCP bundle: the CLI downloads it,
 * checks its fileSha256 before reading it, installs it like a local bundle
 * and records the registry as its source; a wrong hash is refused with
 * nothing left behind.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import JSZip from 'jszip';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { fixture, tempDir } from '../helpers/harness.js';
import { startLocalRegistry, type LocalRegistry } from '../helpers/localRegistry.js';

let registry: LocalRegistry;
let dir: Awaited<ReturnType<typeof tempDir>>;
let env: Record<string, string>;
let configPath: string;
let bundle: Buffer;

beforeEach(async () => {
  const zip = new JSZip();
  zip.file(
    'manifest.json',
    JSON.stringify({
      manifest_version: '0.3',
      name: 'tools-bundle',
      version: '0.2.0',
      description: 'A bundle from a registry',
      author: { name: 'Switchboard tests' },
      server: {
        type: 'node',
        entry_point: 'index.mjs',
        mcp_config: { command: 'node', args: ['${__dirname}/index.mjs'], env: { FIXTURE_TOOLS: 'one,two,three' } },
      },
    }),
  );
  zip.file('index.mjs', `import ${JSON.stringify(pathToFileURL(fixture('configurable.mjs')).href)};\n`);
  bundle = await zip.generateAsync({ type: 'nodebuffer' });
  registry = await startLocalRegistry([], { 'tools.mcpb': bundle });
  const entry = (sha: string, name: string) => ({
    name,
    description: 'Tools as an MCP bundle',
    version: '0.2.0',
    packages: [
      {
        registryType: 'mcpb',
        identifier: `${registry.url}/files/tools.mcpb`,
        fileSha256: sha,
        transport: { type: 'stdio' },
      },
    ],
  });
  registry.publish(entry(createHash('sha256').update(bundle).digest('hex'), 'io.github.switchboard-tests/tools'));
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
    args: [join(directory, 'index.mjs')],
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
