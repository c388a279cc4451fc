/**
 * The first `serve` of a config in an interactive terminal opens the UI once,
 * in the user's browser ($BROWSER here: a script that records its argument),
 * with a login link of its own (the printed one stays usable); a second
 * serve of the same config does not, nor does one with --no-open,
 * SWITCHBOARD_NO_BROWSER, BROWSER=none, no display, or no terminal.
 * `SWITCHBOARD_ASSUME_TTY=1` stands in for the terminal (serve's output is a pipe here).
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login } from '../../helpers/bridgeClient.js';
import { BIN } from '../../helpers/cli.js';
import { waitUntil } from '../../helpers/processes.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

/** Ready once serve has said where its config is (after the UI lines and the open decision). */
const READY = /UI: (\S+)\r?\n[\s\S]*?Config: /;

describe.skipIf(process.platform !== 'linux')('the UI opened on the first serve', () => {
  let dir: string;
  let record: string;
  let config: string;
  const running: SpawnedServer[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sb-first-open-'));
    record = join(dir, 'opened.txt');
    const browser = join(dir, 'browser.sh');
    await writeFile(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${record}'\n`);
    await chmod(browser, 0o755);
    config = join(dir, 'config.json');
    await writeFile(config, JSON.stringify({ mcpServers: {} }));
    for (const sub of ['home', 'xdg-config', 'xdg-state', 'xdg-data']) await mkdir(join(dir, sub));
  });

  afterAll(async () => {
    await Promise.allSettled(running.map((server) => server.stop()));
    await rm(dir, { recursive: true, force: true });
  });

  /** The environment of a person's terminal session with a display and $BROWSER set to the recorder. */
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({
    HOME: join(dir, 'home'),
    XDG_CONFIG_HOME: join(dir, 'xdg-config'),
    XDG_STATE_HOME: join(dir, 'xdg-state'),
    XDG_DATA_HOME: join(dir, 'xdg-data'),
    XDG_CURRENT_DESKTOP: '',
    DISPLAY: ':99',
    WAYLAND_DISPLAY: '',
    BROWSER: join(dir, 'browser.sh'),
    SWITCHBOARD_NO_BROWSER: '',
    SWITCHBOARD_TOKEN: 'first-open-token-0123456789',
    SWITCHBOARD_ASSUME_TTY: '1',
    ...extra,
  });

  async function serve(extraEnv: Record<string, string> = {}, args: string[] = [], configPath = config) {
    const server = await spawnServer(
      [BIN, 'serve', '--port', '0', '--config', configPath, ...args],
      READY,
      env(extraEnv),
      30_000,
    );
    running.push(server);
    let output = server.match.input ?? '';
    server.child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return { server, printed: server.match[1] ?? '', output: () => output };
  }

  const opened = async (): Promise<string[]> =>
    (await readFile(record, 'utf8').catch(() => '')).split('\n').filter(Boolean);

  it('opens a login link of its own in the browser, once, and says so', async () => {
    const first = await serve();
    expect(first.output()).toContain('Opened the UI in your browser');
    await waitUntil(async () => (await opened()).length === 1, { timeoutMs: 10_000 });
    const [url] = await opened();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ui\?login=/);
    expect(url).not.toBe(first.printed);
    // Both links log in: the opened one, and the printed one the person may still use.
    await login(url!);
    await login(first.printed);
    expect(JSON.parse(await readFile(join(dir, 'xdg-state', 'mcp-switchboard', 'ui-opened.json'), 'utf8'))).toEqual({
      configs: [config],
    });
  }, 60_000);

  it('does not open it again for the same config', async () => {
    const again = await serve();
    expect(again.output()).not.toContain('Opened the UI');
    expect(await opened()).toHaveLength(1);
  }, 60_000);

  it.each([
    ['--no-open', {}, ['--no-open']],
    ['SWITCHBOARD_NO_BROWSER=1', { SWITCHBOARD_NO_BROWSER: '1' }, []],
    ['BROWSER=none', { BROWSER: 'none' }, []],
    ['no display', { DISPLAY: '' }, []],
    ['no terminal', { SWITCHBOARD_ASSUME_TTY: '' }, []],
  ])(
    'skips it with %s, even for a config never opened',
    async (_label, extra, args) => {
      const other = join(dir, `config-${Math.random().toString(36).slice(2)}.json`);
      await writeFile(other, JSON.stringify({ mcpServers: {} }));
      const run = await serve(extra, args, other);
      expect(run.output()).not.toContain('Opened the UI');
      expect(await opened()).toHaveLength(1);
    },
    60_000,
  );
});
