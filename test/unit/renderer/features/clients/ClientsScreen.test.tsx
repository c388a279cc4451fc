// @vitest-environment jsdom
/**
 * The Clients screen's pieces with logic: installing and uninstalling (what
 * the row says afterwards), choosing servers to import (secrets by name only),
 * and a client token shown once.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientAppView, ImportCandidateView, ProfileView } from '../../../../../shared/model/views.js';
import { ClientAppsPanel, describeWrite } from '../../../../../renderer/src/features/clients/ClientAppsPanel.js';
import { ClientsScreen } from '../../../../../renderer/src/features/clients/ClientsScreen.js';
import { initialSelection, secretsNote } from '../../../../../renderer/src/features/clients/ImportDialog.js';
import { ProfilesPanel } from '../../../../../renderer/src/features/clients/ProfilesPanel.js';
import { renderWithStore } from '../../renderWithStore.js';

const app = (id: string, name: string, over: Partial<ClientAppView> = {}): ClientAppView => ({
  id,
  name,
  configPath: `/home/me/.${id}/mcp.json`,
  detected: true,
  installed: false,
  transport: 'http',
  supportsProject: false,
  toolNameBudget: 64,
  ...over,
});

const candidate = (name: string, over: Partial<ImportCandidateView> = {}): ImportCandidateView => ({
  name,
  id: name,
  inSwitchboard: 'no',
  secretFields: [],
  warnings: [],
  ...over,
});

const row = (name: string) => screen.getByRole('row', { name: new RegExp(name) });

describe('Client apps', () => {
  afterEach(cleanup);

  it('installs, says where it wrote and the backup, then offers Uninstall', async () => {
    const user = userEvent.setup();
    let installed = false;
    const { client } = await renderWithStore(<ClientAppsPanel />, (c) => {
      c.handle('clients.list', () => [
        app('cursor', 'Cursor', { installed }),
        app('windsurf', 'Windsurf', { detected: false }),
      ]);
      c.handle('clients.install', () => {
        installed = true;
        return {
          path: '/home/me/.cursor/mcp.json',
          changed: true,
          backup: '/state/backups/cursor/1.json',
          notes: ['restart Cursor'],
        };
      });
      c.handle('clients.uninstall', () => {
        installed = false;
        return { path: '/home/me/.cursor/mcp.json', changed: true };
      });
    });
    expect(within(row('Cursor')).getByText('Found')).toBeTruthy();
    expect(within(row('Windsurf')).getByText('Not found')).toBeTruthy();
    expect((within(row('Windsurf')).getByRole('button', { name: 'Import…' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(within(row('Cursor')).getByRole('button', { name: 'Install' }));
    await within(row('Cursor')).findByRole('button', { name: 'Uninstall' });
    expect(client.calls.find((c) => c.method === 'clients.install')?.params).toEqual({ client: 'cursor' });
    expect(within(row('Cursor')).getByText('✓ Installed')).toBeTruthy();
    const note = within(row('Cursor')).getByRole('status').textContent;
    expect(note).toContain('Written to /home/me/.cursor/mcp.json');
    expect(note).toContain('backed up to /state/backups/cursor/1.json');
    expect(note).toContain('restart Cursor');

    await user.click(within(row('Cursor')).getByRole('button', { name: 'Uninstall' }));
    await within(row('Cursor')).findByRole('button', { name: 'Install' });
    expect(client.calls.find((c) => c.method === 'clients.uninstall')?.params).toEqual({ client: 'cursor' });
    expect(within(row('Cursor')).getByRole('status').textContent).toContain('Removed from /home/me/.cursor/mcp.json');
  });

  it('shows a refused install as an error and keeps the state', async () => {
    const user = userEvent.setup();
    await renderWithStore(<ClientAppsPanel />, (c) => {
      c.handle('clients.list', () => [app('codex', 'Codex')]);
      c.handle('clients.install', () => ({
        error: { code: 'client_config_malformed', message: 'config.toml:1:7: invalid string' },
      }));
    });
    await user.click(within(row('Codex')).getByRole('button', { name: 'Install' }));
    await within(row('Codex')).findByText(/config\.toml:1:7: invalid string/);
    expect(within(row('Codex')).getByText('Found')).toBeTruthy();
    expect(within(row('Codex')).queryByRole('status')).toBeNull();
  });

  it('describes a write that changed nothing', () => {
    expect(describeWrite(true, { path: '/p', changed: false, notes: [] })).toEqual(['/p was already up to date']);
    expect(describeWrite(false, { path: '/p', changed: true })).toEqual(['Removed from /p']);
  });

  it('shows the snippet with a copy button', async () => {
    const user = userEvent.setup();
    await renderWithStore(<ClientAppsPanel />, (c) => {
      c.handle('clients.list', () => [app('vscode', 'VS Code')]);
      c.handle('clients.snippet', () => ({ text: '{ "url": "http://127.0.0.1:1/mcp" }' }));
    });
    await user.click(within(row('VS Code')).getByRole('button', { name: 'Snippet' }));
    await within(row('VS Code')).findByText('{ "url": "http://127.0.0.1:1/mcp" }');
    expect(within(row('VS Code')).getByRole('button', { name: 'Copy VS Code snippet' })).toBeTruthy();
  });
});

describe('Import dialog', () => {
  afterEach(cleanup);

  const candidates = [
    candidate('filesystem', { inSwitchboard: 'same' }),
    candidate('github', { secretFields: ['env.GITHUB_PERSONAL_ACCESS_TOKEN'] }),
    candidate('perplexity', { skipReason: 'uses ${input:perplexity-key}, which only VS Code can resolve' }),
    candidate('docs', { id: 'docs-2', inSwitchboard: 'name-taken' }),
  ];

  it('chooses every new importable server at first', () => {
    expect([...initialSelection(candidates)]).toEqual(['github']);
  });

  it('says where secret fields go, by name only', () => {
    expect(secretsNote(candidates[1]!, true)).toBe('secrets moved to the keychain: env.GITHUB_PERSONAL_ACCESS_TOKEN');
    expect(secretsNote(candidates[1]!, false)).toContain('environment references');
    expect(secretsNote(candidates[0]!, true)).toBeUndefined();
  });

  it('lists, marks, imports the chosen ones and re-reads the client apps (the servers come with core events)', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<ClientAppsPanel />, (c) => {
      c.handle('clients.list', () => [app('claude-desktop', 'Claude Desktop')]);
      c.handle('clients.importable', () => candidates);
      c.handle('clients.import', (params) => ({ imported: params.names }));
    });
    await user.click(within(row('Claude Desktop')).getByRole('button', { name: 'Import…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import from Claude Desktop' });
    const box = (name: RegExp) => within(dialog).getByRole('checkbox', { name }) as HTMLInputElement;
    await waitFor(() => expect(box(/github/).checked).toBe(true));
    expect(box(/filesystem/).disabled).toBe(true);
    expect(box(/filesystem/).labels?.[0]?.textContent).toContain('already in Switchboard');
    expect(box(/perplexity/).disabled).toBe(true);
    expect(box(/docs/).checked).toBe(false);
    expect(box(/docs/).labels?.[0]?.textContent).toContain('imported as docs-2');
    expect(box(/github/).labels?.[0]?.textContent).toContain(
      'secrets moved to the keychain: env.GITHUB_PERSONAL_ACCESS_TOKEN',
    );

    await user.click(box(/docs/));
    const before = { backends: client.count('backends.list'), apps: client.count('clients.list') };
    await user.click(within(dialog).getByRole('button', { name: 'Import 2' }));
    await within(dialog).findByText('Imported: github, docs');
    expect(client.calls.find((c) => c.method === 'clients.import')?.params).toEqual({
      client: 'claude-desktop',
      names: ['github', 'docs'],
    });
    await waitFor(() => expect(client.count('clients.list')).toBeGreaterThan(before.apps));
    expect(client.count('backends.list')).toBe(before.backends); // no hand-made refetch: backendsChanged does it
    expect((within(dialog).getByRole('button', { name: /^Import \d/ }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Client profiles', () => {
  afterEach(cleanup);

  it('shows a new token once, rotates it, and revokes only after confirmation', async () => {
    const user = userEvent.setup();
    const profiles: ProfileView[] = [];
    let issued = 0;
    const { client } = await renderWithStore(<ProfilesPanel />, (c) => {
      c.handle('profiles.list', () => [...profiles]);
      // As the core does: a profile change is announced with policyChanged (which re-fetches the list).
      c.handle('profiles.createToken', ({ id, name }) => {
        profiles.push({ id, name, hasToken: true });
        c.emit('policyChanged', {});
        return { token: `token-${++issued}-abcdefghijklmnop` };
      });
      c.handle('profiles.rotateToken', () => ({ token: `token-${++issued}-abcdefghijklmnop` }));
      c.handle('profiles.revoke', ({ id }) => {
        profiles.splice(0, 1, { id, name: 'Laptop', hasToken: false });
        c.emit('policyChanged', {});
      });
    });
    await user.type(screen.getByRole('textbox', { name: 'Profile ID' }), 'laptop');
    await user.type(screen.getByRole('textbox', { name: 'Profile name' }), 'Laptop');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const once = await screen.findByRole('dialog', { name: 'Copy the token now' });
    expect(within(once).getByLabelText('New token').textContent).toBe('token-1-abcdefghijklmnop');
    expect(within(once).getByRole('button', { name: 'Copy token' })).toBeTruthy();
    expect(client.calls.find((c) => c.method === 'profiles.createToken')?.params).toEqual({
      id: 'laptop',
      name: 'Laptop',
    });
    await user.click(within(once).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.body.textContent).not.toContain('token-1-');
    const laptop = await screen.findByRole('row', { name: /laptop/ });
    expect(within(laptop).getByText('set')).toBeTruthy();

    await user.click(within(laptop).getByRole('button', { name: 'Rotate token' }));
    const rotated = await screen.findByRole('dialog', { name: 'Copy the token now' });
    expect(within(rotated).getByLabelText('New token').textContent).toBe('token-2-abcdefghijklmnop');
    await user.click(within(rotated).getByRole('button', { name: 'Done' }));

    await user.click(within(laptop).getByRole('button', { name: 'Revoke' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke laptop?' })).getByRole('button', { name: 'Cancel' }),
    );
    expect(client.count('profiles.revoke')).toBe(0);
    await user.click(within(laptop).getByRole('button', { name: 'Revoke' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke laptop?' })).getByRole('button', { name: 'Revoke' }),
    );
    await waitFor(() =>
      expect(client.calls.find((c) => c.method === 'profiles.revoke')?.params).toEqual({ id: 'laptop' }),
    );
    await within(await screen.findByRole('row', { name: /laptop/ })).findByText('none');
  });

  it('refuses an invalid profile ID without calling the core', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<ProfilesPanel />);
    await user.type(screen.getByRole('textbox', { name: 'Profile ID' }), '9 lives');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    await screen.findByText(/must start with a letter/);
    expect(client.count('profiles.createToken')).toBe(0);
  });
});

describe('Clients screen', () => {
  afterEach(cleanup);

  it('shows the endpoint, the apps, sessions and profiles', async () => {
    await renderWithStore(<ClientsScreen />, (c) => c.handle('clients.list', () => [app('cursor', 'Cursor')]));
    expect(screen.getByLabelText('Endpoint URL').textContent).toBe('http://127.0.0.1:1/mcp');
    for (const name of ['Client apps', 'Connected sessions', 'Client profiles'])
      expect(screen.getByRole('region', { name })).toBeTruthy();
    expect(screen.getByRole('row', { name: /Cursor/ })).toBeTruthy();
  });
});
