/**
 * The first run as a person watches it (issue 18 item 10): `serve` says how
 * many servers it starts before the slow part, and on Ctrl-C prints one line
 * saying it stopped every server, whose processes are then gone.
 */
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../../helpers/cli.js';
import { fixture, nodeServer, tempDir } from '../../helpers/harness.js';
import { descendantPids, isAlive, waitUntil } from '../../helpers/processes.js';
import { spawnServer, type SpawnedServer } from '../../helpers/spawnServer.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let serve: SpawnedServer | undefined;

beforeAll(async () => {
  dir = await tempDir();
});
afterAll(async () => {
  await serve?.stop();
  await dir?.cleanup();
});

describe('serve start and stop lines', () => {
  it('announces the servers it starts, and on SIGINT says in one line that it stopped them all', async () => {
    const configPath = join(dir.path, 'config.json');
    await writeFile(
      configPath,
      JSON.stringify({
        mcpServers: {
          one: nodeServer(fixture('configurable.mjs')),
          two: nodeServer(fixture('configurable.mjs')),
          three: nodeServer(fixture('slow.mjs')),
          off: { ...nodeServer(fixture('configurable.mjs')), enabled: false },
        },
      }),
    );
    const env = {
      HOME: dir.path,
      XDG_CONFIG_HOME: join(dir.path, 'config'),
      XDG_STATE_HOME: join(dir.path, 'state'),
      SWITCHBOARD_TOKEN: '',
    };
    serve = await spawnServer([BIN, 'serve', '--config', configPath, '--port', '0', '--quiet'], /backends: .*\n/, env);
    let output = serve.match.input ?? '';
    serve.child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const starting = output.indexOf('[switchboard] starting 3 servers...');
    expect(starting).toBeGreaterThan(output.indexOf('MCP endpoint:'));
    expect(output.indexOf('[switchboard] backends: 3 up')).toBeGreaterThan(starting);

    const pid = serve.child.pid!;
    await waitUntil(async () => (await descendantPids(pid)).length >= 3);
    const children = await descendantPids(pid);
    const exited = once(serve.child, 'exit');
    serve.child.kill('SIGINT');
    const [code] = (await exited) as [number];
    serve = undefined;
    expect(code).toBe(0);
    const stopLines = output.split('\n').filter((line) => /stop/i.test(line));
    expect(stopLines).toEqual(['[switchboard] stopped Switchboard and all 3 servers (processes reaped)']);
    expect(children.filter(isAlive)).toEqual([]);
  }, 30_000);
});
