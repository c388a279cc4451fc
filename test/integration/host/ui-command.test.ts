/**
 * `mcp-switchboard ui`, end to end: with `serve` running (its token kept in
 * the token file), the command prints a fresh login link minted by the
 * instance, which logs in once; the used link's page says to run `ui`; a
 * wrong token and no running instance are said plainly.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../../helpers/bridgeClient.js';
import { runCli } from '../../helpers/cli.js';
import { serveUi, type ServedUi } from '../../e2e/serveUi.js';

describe('mcp-switchboard ui', () => {
  let served: ServedUi;
  let env: Record<string, string>;

  beforeAll(async () => {
    // No SWITCHBOARD_TOKEN: serve generates its token and keeps it in the token file, as for most users.
    served = await serveUi({ mcpServers: {} }, { env: () => ({ SWITCHBOARD_TOKEN: '' }) });
    env = {
      HOME: join(served.dir, 'home'),
      XDG_CONFIG_HOME: join(served.dir, 'xdg-config'),
      XDG_STATE_HOME: join(served.dir, 'xdg-state'),
      XDG_DATA_HOME: join(served.dir, 'xdg-data'),
      SWITCHBOARD_TOKEN: '',
      SWITCHBOARD_NO_BROWSER: '1',
    };
  }, 60_000);
  afterAll(() => served?.stop());

  it('prints a fresh login link of the running instance that logs in once', async () => {
    const { code, stdout } = await runCli(['ui'], env);
    expect(code).toBe(0);
    const url = /UI: (\S+)/.exec(stdout)?.[1] ?? '';
    const origin = new URL(served.endpointUrl).origin;
    expect(url).toMatch(new RegExp(`^${origin}/ui\\?login=[A-Za-z0-9_-]{40,}$`));
    expect(url).not.toBe(served.loginUrl);
    const cookie = await login(url);
    expect((await fetch(`${origin}/`, { headers: { Cookie: cookie } })).status).toBe(200);
    await expect(login(url)).rejects.toMatchObject({ status: 403 });
    const used = await fetch(url);
    expect(await used.text()).toContain('Run `mcp-switchboard ui` for a new one');
  }, 30_000);

  it('says so when the running instance does not take the token', async () => {
    const { code, stdout, stderr } = await runCli(['ui'], { ...env, SWITCHBOARD_TOKEN: 'not-the-token' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('did not accept this token');
  }, 30_000);

  it('says how to start one when none is running', async () => {
    const { code, stderr } = await runCli(['ui'], { ...env, XDG_STATE_HOME: join(served.dir, 'elsewhere') });
    expect(code).toBe(1);
    expect(stderr).toContain('no Switchboard is running. Start it with `mcp-switchboard serve`');
  }, 30_000);
});
