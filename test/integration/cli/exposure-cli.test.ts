/** `mcp-switchboard exposure` and the validation of `exposure` in the config, through the built CLI. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/harness.js';

describe('exposure settings', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let configPath: string;
  const run = (...args: string[]) => runCli([...args, '--config', configPath], { HOME: dir.path });
  const policy = async () =>
    (JSON.parse(await readFile(configPath, 'utf8')) as { policy: Record<string, unknown> }).policy;

  beforeEach(async () => {
    dir = await tempDir();
    configPath = join(dir.path, 'config.json');
    await writeFile(configPath, JSON.stringify({ mcpServers: {}, policy: { clients: { bot: { name: 'Bot' } } } }));
  });
  afterEach(() => dir.cleanup());

  it('refuses a config whose exposure is anything else, naming the field', async () => {
    await writeFile(
      configPath,
      JSON.stringify({
        mcpServers: {},
        policy: { exposure: 'some', clients: { bot: { name: 'Bot', exposure: 'x' } } },
      }),
    );
    const checked = await run('check-config');
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain(`${configPath}: policy.exposure:`);
    expect(checked.stderr).toContain(`${configPath}: policy.clients.bot.exposure:`);
  });

  it('accepts search+load per client and as the default, in the CLI and in the config', async () => {
    expect(await run('exposure', 'bot', 'search+load')).toMatchObject({
      code: 0,
      stdout: 'bot: search+load (was default (all))\n',
    });
    expect((await run('exposure', 'default', 'search+load')).code).toBe(0);
    expect(await policy()).toMatchObject({ exposure: 'search+load', clients: { bot: { exposure: 'search+load' } } });
    expect(await run('exposure', 'bot')).toMatchObject({ code: 0, stdout: 'bot: search+load\n' });
    expect((await run('check-config')).code).toBe(0);
  });

  it('sets, shows and refuses exposure per client and as the default', async () => {
    expect(await run('exposure', 'bot')).toMatchObject({ code: 0, stdout: 'bot: default (all)\n' });
    expect(await run('exposure', 'bot', 'search')).toMatchObject({
      code: 0,
      stdout: 'bot: search (was default (all))\n',
    });
    expect(await run('exposure', 'default', 'auto')).toMatchObject({ code: 0 });
    expect(await policy()).toMatchObject({ exposure: 'auto', clients: { bot: { name: 'Bot', exposure: 'search' } } });
    // A known client without a profile yet gets one.
    expect((await run('exposure', 'cursor', 'all')).code).toBe(0);
    expect(await policy()).toMatchObject({ clients: { cursor: { name: 'Cursor', exposure: 'all' } } });

    const before = await readFile(configPath, 'utf8');
    const bad = await run('exposure', 'bot', 'some');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('exposure must be all, search, search+load, code or auto, not "some"');
    const unknown = await run('exposure', 'nobody', 'all');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no client profile "nobody"');
    expect(await readFile(configPath, 'utf8')).toBe(before);
    expect((await run('check-config')).code).toBe(0);
  });
});
