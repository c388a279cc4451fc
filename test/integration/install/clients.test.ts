/**
 * Install and uninstall against realistic client files in a throwaway HOME:
 * the result parses with the client's own parser, holds our entry, and keeps
 * everything else; uninstall gives back the original bytes; malformed files
 * are refused untouched.
 */
import { readdir, readFile, stat, writeFile, chmod, symlink, mkdir, lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clientDefinition,
  clientDefinitions,
  detectClients,
  installClient,
  undoLastWrite,
  uninstallClient,
  type ClientsContext,
  clientSnippet,
  type ClientId,
} from '../../../electron/core/install/index.js';
import { clientFixture, linuxPlatform, populateHome } from '../../fixtures/client-configs/home.js';
import { tempDir } from '../../helpers/harness.js';

const TOKEN = 'tok-0123456789abcdef';
const URL_ = 'http://127.0.0.1:47100/mcp';

/** Parses a client file the way that client does. */
function parseAsClient(id: ClientId, text: string): Record<string, unknown> {
  const format = clientDefinition(id)!.format;
  if (format === 'toml') return parseToml(text) as Record<string, unknown>;
  if (format === 'json') return JSON.parse(text) as Record<string, unknown>;
  const errors: unknown[] = [];
  const value = parseJsonc(text, errors as never, { allowTrailingComma: true }) as Record<string, unknown>;
  if (errors.length > 0) throw new Error(`JSONC errors: ${JSON.stringify(errors)}`);
  return value;
}

/** The parsed document without our entry (and without the container if it held only ours). */
function withoutOurs(id: ClientId, value: Record<string, unknown>): Record<string, unknown> {
  const definition = clientDefinition(id)!;
  const copy = structuredClone(value);
  const map = copy[definition.container] as Record<string, unknown> | undefined;
  if (map) delete map[definition.entryKey];
  return copy;
}

describe('client install and uninstall', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let ctx: ClientsContext;

  beforeEach(async () => {
    dir = await tempDir();
    ctx = {
      platform: linuxPlatform(join(dir.path, 'home')),
      stateDir: join(dir.path, 'state'),
      url: URL_,
      launcher: { command: '/opt/node/bin/node', args: ['/opt/switchboard/bin/mcp-switchboard.js'] },
      tokens: { tokenFor: async () => TOKEN },
    };
  });
  afterEach(() => dir.cleanup());

  for (const definition of clientDefinitions()) {
    const id = definition.id;
    it(`${id}: install keeps every other entry, uninstall gives back the original bytes`, async () => {
      const placed = (await populateHome(ctx.platform.home, [id])).get(id)!;
      const before = parseAsClient(id, placed.original);

      const outcome = await installClient(ctx, id);
      expect(outcome).toMatchObject({ changed: true, path: placed.path });
      const text = await readFile(placed.path, 'utf8');
      const after = parseAsClient(id, text);
      const entry = (after[definition.container] as Record<string, unknown>)[definition.entryKey] as Record<
        string,
        unknown
      >;
      expect(entry).toEqual(definition.buildEntry({ url: URL_, token: TOKEN, launcher: ctx.launcher, project: false }));
      expect(withoutOurs(id, after)).toEqual(before);
      // Every original line is still there, in order (comments and formatting kept).
      const lines = text.split('\n');
      let cursor = 0;
      for (const line of placed.original.split('\n')) {
        const found = lines.indexOf(line, cursor);
        if (found === -1) {
          // The line that got our comma: the same line with one comma added.
          const withComma = (l: string) =>
            l.length === line.length + 1 && [...l].some((c, i) => c === ',' && l.slice(0, i) + l.slice(i + 1) === line);
          expect(lines.slice(cursor).some(withComma), `line kept: ${line}`).toBe(true);
        } else cursor = found + 1;
      }
      // The backup is the previous file, readable only by the user.
      expect(await readFile(outcome.backup!, 'utf8')).toBe(placed.original);
      expect((await stat(outcome.backup!)).mode & 0o777).toBe(0o600);
      expect(outcome.entry && JSON.stringify(outcome.entry)).not.toContain(TOKEN);

      const status = (await detectClients(ctx)).find((s) => s.id === id)!;
      expect(status).toMatchObject({ detected: true, installed: true });

      // Installing again changes nothing.
      expect(await installClient(ctx, id)).toMatchObject({ changed: false });
      await uninstallClient(ctx, id);
      expect(await readFile(placed.path, 'utf8')).toBe(placed.original);
    });

    it(`${id}: uninstall after the client changed the file removes only our entry`, async () => {
      const placed = (await populateHome(ctx.platform.home, [id])).get(id)!;
      await installClient(ctx, id);
      // The client saves an unrelated change meanwhile (so the file is no longer what we wrote).
      const edited = `${await readFile(placed.path, 'utf8')}${definition.format === 'toml' ? '# edited\n' : '\n'}`;
      await writeFile(placed.path, edited);
      await uninstallClient(ctx, id);
      const expected = `${placed.original}${definition.format === 'toml' ? '# edited\n' : '\n'}`;
      const result = await readFile(placed.path, 'utf8');
      if (definition.format === 'toml') {
        // Our table sat at the end, before the client's comment: the comment stays.
        expect(result).toBe(`${placed.original}\n# edited\n`.replace(/\n\n# edited/, '\n# edited'));
      } else expect(result).toBe(expected);
    });
  }

  it('creates a missing file and removes it again on uninstall; the client directory is detected', async () => {
    await mkdir(join(ctx.platform.home, '.cursor'), { recursive: true });
    const status = (await detectClients(ctx)).find((s) => s.id === 'cursor')!;
    expect(status).toMatchObject({ detected: true, configExists: false, installed: false });
    const outcome = await installClient(ctx, 'cursor');
    expect(outcome.backup).toBeUndefined();
    expect(JSON.parse(await readFile(outcome.path, 'utf8'))).toEqual({
      mcpServers: { switchboard: { url: URL_, headers: { Authorization: `Bearer ${TOKEN}` } } },
    });
    await uninstallClient(ctx, 'cursor');
    await expect(stat(outcome.path)).rejects.toThrow(/ENOENT/);
  });

  it('refuses malformed files, naming the line, and leaves them untouched', async () => {
    const cases: [ClientId, string][] = [
      ['claude-desktop', 'malformed/strict-trailing-comma.json'],
      ['zed', 'malformed/unclosed.jsonc'],
      ['codex', 'malformed/config.toml'],
    ];
    for (const [id, fixture] of cases) {
      const path = clientDefinition(id)!.configPath(ctx.platform);
      await mkdir(join(path, '..'), { recursive: true });
      const original = await readFile(clientFixture(fixture), 'utf8');
      await writeFile(path, original);
      await expect(installClient(ctx, id)).rejects.toMatchObject({
        code: 'client_config_malformed',
        message: expect.stringMatching(new RegExp(`^${path.replace(/[.]/g, '\\.')}:\\d+:\\d+: not valid`)),
      });
      expect(await readFile(path, 'utf8')).toBe(original);
      const status = (await detectClients(ctx)).find((s) => s.id === id)!;
      expect(status.problem?.code).toBe('client_config_malformed');
    }
    await expect(readdir(join(ctx.stateDir, 'backups'))).rejects.toThrow(/ENOENT/);
  });

  it('never overwrites a server of the user that uses our key, and removes only a Switchboard entry', async () => {
    const path = clientDefinition('cursor')!.configPath(ctx.platform);
    await mkdir(join(path, '..'), { recursive: true });
    const mine = '{ "mcpServers": { "switchboard": { "command": "my-own-switchboard" } } }\n';
    await writeFile(path, mine);
    await expect(installClient(ctx, 'cursor')).rejects.toMatchObject({ code: 'entry_conflict' });
    await expect(uninstallClient(ctx, 'cursor')).rejects.toMatchObject({ code: 'entry_conflict' });
    expect(await readFile(path, 'utf8')).toBe(mine);
    const odd = '{ "mcpServers": [] }\n';
    await writeFile(path, odd);
    await expect(installClient(ctx, 'cursor')).rejects.toMatchObject({ code: 'client_config_unexpected' });
    expect(await readFile(path, 'utf8')).toBe(odd);
  });

  it('keeps the file mode, writes through a symlink, and undo restores the previous bytes', async () => {
    const placed = (await populateHome(ctx.platform.home, ['windsurf'])).get('windsurf')!;
    // A dotfiles manager: the config is a symlink to the real file elsewhere.
    const real = join(dir.path, 'dotfiles', 'mcp_config.json');
    await mkdir(join(real, '..'), { recursive: true });
    await writeFile(real, placed.original);
    await chmod(real, 0o640);
    const { rm } = await import('node:fs/promises');
    await rm(placed.path);
    await symlink(real, placed.path);
    await installClient(ctx, 'windsurf');
    expect((await lstat(placed.path)).isSymbolicLink()).toBe(true);
    expect((await stat(real)).mode & 0o777).toBe(0o640);
    expect(await readFile(real, 'utf8')).toContain('"serverUrl": "http://127.0.0.1:47100/mcp"');
    await undoLastWrite(ctx, 'windsurf');
    expect(await readFile(real, 'utf8')).toBe(placed.original);
    await expect(undoLastWrite(ctx, 'windsurf')).rejects.toMatchObject({ code: 'no_backup' });
  });

  it('undo refuses when the file changed since our write', async () => {
    const placed = (await populateHome(ctx.platform.home, ['claude-code'])).get('claude-code')!;
    await installClient(ctx, 'claude-code');
    await writeFile(placed.path, `${await readFile(placed.path, 'utf8')} `);
    await expect(undoLastWrite(ctx, 'claude-code')).rejects.toMatchObject({ code: 'changed_since_write' });
  });

  it('project scope: Claude Code .mcp.json gets a ${SWITCHBOARD_TOKEN} reference, not the token', async () => {
    const project = join(dir.path, 'project');
    await mkdir(project);
    const outcome = await installClient(ctx, 'claude-code', { project });
    expect(outcome.path).toBe(join(project, '.mcp.json'));
    expect(outcome.notes.join(' ')).toContain('SWITCHBOARD_TOKEN');
    const text = await readFile(outcome.path, 'utf8');
    expect(text).not.toContain(TOKEN);
    expect(JSON.parse(text)).toEqual({
      mcpServers: { sb: { type: 'http', url: URL_, headers: { Authorization: 'Bearer ${SWITCHBOARD_TOKEN}' } } },
    });
    await expect(installClient(ctx, 'vscode', { project })).rejects.toMatchObject({ code: 'project_unsupported' });
  });

  it('a connect entry from the desktop app runs its binary as Node (ELECTRON_RUN_AS_NODE) beside the token', () => {
    const entry = clientDefinition('claude-desktop')!.buildEntry({
      url: 'http://127.0.0.1:47100/mcp',
      token: 'tok',
      launcher: {
        command: '/opt/MCP Switchboard/mcp-switchboard',
        args: ['/opt/app.asar/bin/mcp-switchboard.js'],
        env: { ELECTRON_RUN_AS_NODE: '1' },
      },
      project: false,
    });
    expect(entry).toEqual({
      command: '/opt/MCP Switchboard/mcp-switchboard',
      args: ['/opt/app.asar/bin/mcp-switchboard.js', 'connect'],
      env: { ELECTRON_RUN_AS_NODE: '1', SWITCHBOARD_CLIENT_TOKEN: 'tok' },
    });
  });

  it('snippets parse with the client parser and hold the entry', async () => {
    for (const definition of clientDefinitions()) {
      const snippet = await clientSnippet(ctx, definition.id);
      const parsed = parseAsClient(definition.id, snippet.text);
      expect((parsed[definition.container] as Record<string, unknown>)[definition.entryKey]).toEqual(snippet.entry);
    }
    await expect(clientSnippet(ctx, 'notepad')).rejects.toMatchObject({ code: 'unknown_client' });
  });
});
