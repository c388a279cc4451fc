/**
 * `mcp-switchboard sandbox learn` through the built CLI, with real
 * bubblewrap, strace and server-memory: the calls given with their JSON
 * arguments are made, the proposal is printed as a diff (home paths as ~),
 * `--accept` writes it to the server's `sandbox`, a second run finds nothing
 * to change; a secret in the server's env never reaches the output; bad
 * flags are usage errors.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { MEMORY, tempDir } from '../../helpers/harness.js';
import { sandboxSupport } from '../../../electron/core/backends/index.js';
import { findCommand } from '../../../electron/core/backends/process/commandLookup.js';

const support = await sandboxSupport();
const strace = findCommand('strace', process.env['PATH'] ?? '');
const mustRun = process.env['CI'] === 'true';
const SECRET = 'sk-cli-learn-canary-77';

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
