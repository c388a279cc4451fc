/**
 * `doctor` names Linux's two sandbox packages once, with the one command that
 * installs both, when either is missing from PATH (a stock desktop has
 * neither, and a registry add used to fail on socat only after bubblewrap was
 * installed), and says nothing of them when both are there.
 */
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/harness.js';
import { runCli } from '../../helpers/cli.js';

const linux = process.platform === 'linux';
const INSTALL = 'sudo apt install bubblewrap socat';

describe.runIf(linux)('doctor on a machine missing a sandbox package', () => {
  let dir: { path: string; cleanup: () => Promise<void> };
  let config: string;

  /** A PATH holding only the named commands (links to this machine's). */
  async function pathWith(...commands: string[]): Promise<string> {
    const bin = join(dir.path, `bin-${commands.join('-') || 'none'}`);
    await mkdir(bin);
    for (const command of commands) {
      const real = (process.env['PATH'] ?? '')
        .split(delimiter)
        .map((folder) => join(folder, command))
        .find((path) => existsSync(path));
      if (!real) throw new Error(`this test needs ${command} installed`);
      await symlink(real, join(bin, command));
    }
    return bin;
  }

  beforeAll(async () => {
    dir = await tempDir();
    config = join(dir.path, 'config.json');
    await writeFile(config, JSON.stringify({ mcpServers: {} }));
  });
  afterAll(() => dir?.cleanup());

  const doctor = (path: string) =>
    runCli(['doctor', '--config', config], { PATH: path, XDG_CONFIG_HOME: dir.path, XDG_STATE_HOME: dir.path });

  it('names both packages once, with one install command, when neither is there', async () => {
    const result = await doctor(await pathWith());
    expect(result.stdout).toContain(
      'Sandbox: the sandbox needs bubblewrap and socat (neither is installed): sudo apt install bubblewrap socat',
    );
    expect(result.stdout.split(INSTALL)).toHaveLength(2);
  }, 60_000);

  it('names both when only socat is missing, saying which', async () => {
    const result = await doctor(await pathWith('bwrap'));
    expect(result.stdout).toMatch(
      /^Sandbox: the sandbox needs bubblewrap and socat \(socat is not installed\): sudo apt install bubblewrap socat/m,
    );
    expect(result.stdout.split(INSTALL)).toHaveLength(2);
  }, 60_000);

  it('says nothing of them when both are installed', async () => {
    const result = await doctor(await pathWith('bwrap', 'socat'));
    expect(result.stdout).not.toContain('Sandbox:');
    expect(result.stdout).toContain('No backends configured.');
  }, 60_000);
});
