/**
 * The custom-server form and the presets become config entries; secret values
 * go to the keychain and the entry only references them.
 */
import { describe, expect, it } from 'vitest';
import { buildPresetEntry, freeBackendId, SERVER_PRESETS } from '../../../../../shared/presets.js';
import {
  emptyServerForm,
  entryFromForm,
  formFromEntry,
} from '../../../../../renderer/src/features/servers/entryForm.js';

const preset = (id: string) => {
  const found = SERVER_PRESETS.find((p) => p.id === id);
  if (!found) throw new Error(id);
  return found;
};

describe('presets', () => {
  it('include the well-known local and remote OAuth servers', () => {
    const ids = SERVER_PRESETS.map((p) => p.id);
    for (const id of [
      'filesystem',
      'memory',
      'fetch',
      'git',
      'github',
      'playwright',
      'sequential-thinking',
      'everything',
    ])
      expect(ids).toContain(id);
    expect(SERVER_PRESETS.filter((p) => p.oauth).map((p) => p.url)).toEqual([
      'https://mcp.notion.com/mcp',
      'https://mcp.linear.app/mcp',
      'https://mcp.sentry.dev/mcp',
    ]);
  });

  it('puts a folder into the args and a key into the keychain', () => {
    expect(buildPresetEntry(preset('filesystem'), { folder: '/srv/docs' }, 'fs').entry).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/docs'],
    });
    const github = buildPresetEntry(preset('github'), { token: 'ghp_secret' }, 'gh');
    expect(github.secrets).toEqual([{ name: 'gh.GITHUB_PERSONAL_ACCESS_TOKEN', value: 'ghp_secret' }]);
    expect(github.entry['env']).toEqual({
      GITHUB_PERSONAL_ACCESS_TOKEN: { secret: 'gh.GITHUB_PERSONAL_ACCESS_TOKEN' },
    });
    expect(JSON.stringify(github.entry)).not.toContain('ghp_secret');
    expect(buildPresetEntry(preset('github'), {}, 'gh').problems).toEqual(['Personal access token is required.']);
    expect(buildPresetEntry(preset('notion'), {}, 'notion').entry).toEqual({
      type: 'http',
      url: 'https://mcp.notion.com/mcp',
    });
  });

  it('suggests a free backend ID', () => {
    expect(freeBackendId('memory', new Set(['memory', 'memory-2']))).toBe('memory-3');
    expect(freeBackendId('git', new Set())).toBe('git');
  });
});

describe('server form', () => {
  it('builds a stdio entry with one argument per line, env rows and secrets', () => {
    const built = entryFromForm({
      ...emptyServerForm(),
      id: 'mine',
      command: 'node',
      args: 'server.js\n--port\n 3 \n',
      cwd: '/tmp',
      env: [
        { key: 'MODE', value: 'fast', secret: false },
        { key: 'API_KEY', value: 'sk-123', secret: true },
      ],
    });
    expect(built.problems).toEqual([]);
    expect(built.entry).toEqual({
      command: 'node',
      args: ['server.js', '--port', '3'],
      cwd: '/tmp',
      env: { MODE: 'fast', API_KEY: { secret: 'mine.API_KEY' } },
      // A server added from now on runs sandboxed unless the user turns it off.
      sandbox: true,
    });
    expect(built.secrets).toEqual([{ name: 'mine.API_KEY', value: 'sk-123' }]);
  });

  it('says what is missing instead of building a broken entry', () => {
    expect(entryFromForm({ ...emptyServerForm(), id: '1x' }).problems).toEqual([
      'The name must start with a letter and use only letters, digits, _ and -.',
      'Enter the command that starts the server.',
    ]);
    expect(entryFromForm({ ...emptyServerForm(), id: 'r', transport: 'http', url: 'ftp://x' }).problems).toEqual([
      'Enter an http:// or https:// URL.',
    ]);
  });

  it('round-trips an entry for editing, keeping secret references and other options', () => {
    const entry = {
      type: 'sse',
      url: 'https://example.test/sse',
      headers: { 'X-Team': 'core', Authorization: { secret: 'remote.Authorization' } },
      requestTimeoutMs: 5000,
    };
    const form = formFromEntry('remote', entry, { 'X-Api': { kind: 'hidden' } });
    expect(form.transport).toBe('sse');
    expect(form.headers.map((h) => h.key)).toEqual(['X-Team', 'Authorization', 'X-Api']);
    expect(entryFromForm(form, entry).entry).toEqual(entry);
  });
});

describe('start mode', () => {
  it('is left to the proxy default unless chosen, and survives an edit', () => {
    const form = { ...emptyServerForm(), id: 'mem', command: 'npx', args: '-y\nserver-memory' };
    expect(entryFromForm(form).entry).not.toHaveProperty('start');
    const lazy = entryFromForm({ ...form, start: 'on-demand' }).entry;
    expect(lazy).toMatchObject({ command: 'npx', start: 'on-demand' });
    const edited = formFromEntry('mem', lazy);
    expect(edited.start).toBe('on-demand');
    // Choosing the default again removes the key (the base entry's other options stay).
    expect(entryFromForm({ ...edited, start: 'default' }, { ...lazy, serialize: true }).entry).toEqual({
      command: 'npx',
      args: ['-y', 'server-memory'],
      sandbox: true,
      serialize: true,
    });
  });
});

describe('sandbox', () => {
  it('is on for a new stdio server unless turned off, absent for a URL, and an edit leaves it as the entry has it', () => {
    const form = { ...emptyServerForm(), id: 'mem', command: 'npx' };
    expect(entryFromForm(form).entry['sandbox']).toBe(true);
    expect(entryFromForm({ ...form, sandbox: false }).entry['sandbox']).toBe(false);
    expect(entryFromForm({ ...form, transport: 'http', url: 'https://x.example/mcp' }).entry).not.toHaveProperty(
      'sandbox',
    );
    // An existing server without a setting of its own keeps none; one with grants keeps them.
    expect(entryFromForm(formFromEntry('old', { command: 'npx' }), { command: 'npx' }).entry).not.toHaveProperty(
      'sandbox',
    );
    const granted = { command: 'npx', args: [], sandbox: { read: ['/srv'], network: 'all' } };
    expect(entryFromForm(formFromEntry('g', granted), granted).entry).toEqual(granted);
  });
});
