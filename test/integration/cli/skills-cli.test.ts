/**
 * `mcp-switchboard skills install|uninstall <client>` end to end: the built
 * CLI in a throwaway HOME against a running Switchboard (startHeadless, what
 * `serve` runs) with our skills fixture. Codex's folder (~/.agents/skills) is
 * written through the client's own profile, an install again leaves both
 * skills as they are, uninstall removes them; a client with no skills folder
 * is refused, naming those that have one.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHeadless, type Headless } from '../../../electron/host/startHeadless.js';
import { BIN, runCli } from '../../helpers/cli.js';
import { fixture, nodeServer } from '../../helpers/harness.js';

const root = await mkdtemp(join(tmpdir(), 'sb-skills-cli-'));
const env = { HOME: root, XDG_CONFIG_HOME: join(root, 'config'), XDG_STATE_HOME: join(root, 'state') };
process.env['HOME'] = env.HOME;
process.env['XDG_CONFIG_HOME'] = env.XDG_CONFIG_HOME;
process.env['XDG_STATE_HOME'] = env.XDG_STATE_HOME;
delete process.env['SWITCHBOARD_TOKEN'];

describe('skills install and uninstall from the CLI', () => {
  let headless: Headless;

  beforeAll(async () => {
    const configPath = join(root, 'config', 'mcp-switchboard', 'config.json');
    await mkdir(join(root, 'config', 'mcp-switchboard'), { recursive: true });
    await writeFile(configPath, JSON.stringify({ mcpServers: { docs: nodeServer(fixture('skills/server.mjs')) } }));
    headless = await startHeadless({
      config: configPath,
      host: '127.0.0.1',
      port: 0,
      launcher: { command: process.execPath, args: [BIN] },
      ui: false,
    });
    await headless.core.start();
  });
  afterAll(async () => {
    await headless?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('installs into Codex’s folder, leaves them as they are the second time, and uninstalls', async () => {
    const folder = join(root, '.agents', 'skills');
    const first = await runCli(['skills', 'install', 'codex'], env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`${folder}: 2 skill(s) written: pdf-processing, release-notes`);
    const source = await readFile(fixture('skills/library/release-notes/SKILL.md'));
    expect((await readFile(join(folder, 'release-notes', 'SKILL.md'))).equals(source)).toBe(true);

    const again = await runCli(['skills', 'install', 'codex'], env);
    expect(again.stdout).toContain(`${folder}: 0 skill(s) written`);
    expect(again.stdout).toContain('unchanged: pdf-processing, release-notes');

    const gone = await runCli(['skills', 'uninstall', 'codex'], env);
    expect(gone.stdout).toContain(`2 skill(s) removed from ${folder}: pdf-processing, release-notes`);
    expect(await readdir(folder)).toEqual([]);
  });

  it('refuses a client with no skills folder, naming those that have one', async () => {
    const refused = await runCli(['skills', 'install', 'zed'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'zed reads no skills from disk; skills install supports: claude-code, codex, cursor, vscode, gemini-cli, opencode',
    );
  });
});
