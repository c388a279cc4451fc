/**
 * `--help` of the built `mcp-switchboard`, as a user runs it (issue 26):
 * every command answers `<command> --help` and `help <command>` with its
 * usage, options and an example; `--help` wins over every other argument and
 * never runs the command (`add --help` adds nothing, `serve --help` starts
 * nothing); an unknown command is named with the nearest one. No serve: fast.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../../electron/cli/specTable.js';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/harness.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let env: Record<string, string>;

beforeAll(async () => {
  dir = await tempDir();
  env = {
    HOME: dir.path,
    XDG_CONFIG_HOME: join(dir.path, 'config'),
    XDG_STATE_HOME: join(dir.path, 'state'),
    SWITCHBOARD_TOKEN: '',
    SWITCHBOARD_NO_BROWSER: '1',
  };
});
afterAll(() => dir?.cleanup());

/** Runs `each` over `items`, four processes at a time (the machine is shared). */
async function fourAtATime<T, R>(items: readonly T[], each: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += 4) {
    results.push(...(await Promise.all(items.slice(start, start + 4).map(each))));
  }
  return results;
}

describe('every command', () => {
  it('prints its usage, options and an example for <command> --help, exit 0', async () => {
    const runs = await fourAtATime(COMMAND_NAMES, async (name) => ({ name, ...(await runCli([name, '--help'], env)) }));
    for (const { name, code, stdout, stderr } of runs) {
      expect({ name, code, stderr }).toEqual({ name, code: 0, stderr: '' });
      expect(stdout.startsWith(`Usage: mcp-switchboard ${name}`), `${name}: ${stdout}`).toBe(true);
      expect(stdout).toMatch(/\nOptions:\n( {2}-.*\n)+/);
      expect(stdout).toContain('  -h, --help');
      expect(stdout).toMatch(new RegExp(`\\nExamples?:\\n  mcp-switchboard ${name}\\b`));
    }
  }, 60_000);

  it('prints the same for help <command> (a command of each kind)', async () => {
    for (const name of ['serve', 'install', 'secret']) {
      const [word, flag] = await Promise.all([runCli(['help', name], env), runCli([name, '--help'], env)]);
      expect(word.code).toBe(0);
      expect(word.stdout).toBe(flag.stdout);
    }
  });
});

describe('--help never runs the command', () => {
  it('add --help adds nothing, whatever else the line says', async () => {
    const configPath = join(dir.path, 'add-config.json');
    const before = JSON.stringify({ mcpServers: {} });
    await writeFile(configPath, before);
    const result = await runCli(
      ['add', 'io.github.example/weather', '--env', 'KEY=1', '--no-check', '--help', '--config', configPath],
      env,
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Usage: mcp-switchboard add /);
    expect(await readFile(configPath, 'utf8')).toBe(before);
  });

  it('serve --help starts nothing: exits at once, no runtime file, no config written', async () => {
    const configPath = join(dir.path, 'serve-config.json');
    const result = await runCli(['serve', '--port', '0', '--config', configPath, '-h'], env);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Usage: mcp-switchboard serve /);
    expect(result.stdout).not.toContain('MCP endpoint');
    expect(existsSync(configPath)).toBe(false);
    const state = join(dir.path, 'state');
    const written = existsSync(state) ? await readdir(state, { recursive: true }) : [];
    expect(written.filter((name) => String(name).endsWith('runtime.json'))).toEqual([]);
  });

  it('loads no core: the help bundle bin/ asks first imports nothing and holds no handler', async () => {
    const bundle = await readFile(join(import.meta.dirname, '../../../dist/cli/help.js'), 'utf8');
    expect(bundle.match(/^import .*$/gm) ?? []).toEqual([]);
    expect(bundle).not.toMatch(/\bimport\(/);
    expect(bundle).toContain('auditSpecs');
    expect(bundle).not.toContain('function auditCommand');
    expect(bundle).not.toContain('SwitchboardCore');
    expect(bundle.length).toBeLessThan(64 * 1024);
  });

  it('wins over an option the command does not take', async () => {
    const result = await runCli(['install', 'cursor', '--stdio', '--help'], env);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^Usage: mcp-switchboard install /);
  });
});

describe('what is not a command', () => {
  it('help <unknown> and <unknown> --help name it and the nearest command, exit 2', async () => {
    const [word, flag] = await Promise.all([runCli(['help', 'instal'], env), runCli(['instal', '--help'], env)]);
    for (const result of [word, flag]) {
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^mcp-switchboard: unknown command "instal" \(did you mean install\?\)\nusage: /);
    }
  });

  it('an option of another command is named as not taken, with the command usage', async () => {
    const result = await runCli(['install', 'cursor', '--stdio'], env);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')).toEqual([
      'mcp-switchboard: install does not take --stdio',
      expect.stringMatching(/^usage: mcp-switchboard install <client> .*; mcp-switchboard install --help/) as unknown,
      '',
    ]);
  });
});
