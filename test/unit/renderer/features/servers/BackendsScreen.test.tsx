// @vitest-environment jsdom
/**
 * The Servers screen and Add server flows against a fake client: cards with
 * health, remove after confirmation, and a failed add keeping what was typed.
 */
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackendView } from '../../../../../shared/model/views.js';
import { AddServerScreen } from '../../../../../renderer/src/features/servers/AddServerScreen.js';
import { BackendsScreen } from '../../../../../renderer/src/features/servers/BackendsScreen.js';
import { renderWithStore } from '../../renderWithStore.js';

const view = (id: string, status: BackendView['health']['status']): BackendView => ({
  health: {
    id,
    transport: 'stdio',
    status,
    settled: true,
    warnings: [],
    counts: { tools: 3, resources: 1, resourceTemplates: 0, prompts: 2 },
    probeFailures: 0,
    restarts: 4,
    outstandingRequests: 0,
    stderrTail: ['warming up', 'ready'],
    lastError: { code: 'connect_failed', message: 'exited with code 1', at: new Date().toISOString() },
  },
  enabled: true,
  target: 'node crash.js',
  entry: { command: 'node', args: ['crash.js'] },
});

describe('Servers screen', () => {
  afterEach(cleanup);

  it('shows idle and cached servers as such (never down) and names the slowest start', async () => {
    const idle = view('memory', 'idle');
    idle.health = { ...idle.health, cached: true, start: 'on-demand', startMs: 900, lastError: undefined };
    const slow = view('github', 'up');
    slow.health = { ...slow.health, startMs: 8200, lastError: undefined };
    await renderWithStore(<BackendsScreen />, (c) => c.handle('backends.list', () => [idle, slow]));
    expect(await screen.findByText('1 of 2 up, 1 idle')).toBeTruthy();
    expect(screen.getByText(/slowest: github, 8\.2 s/)).toBeTruthy();
    const card = screen.getByRole('article', { name: 'memory' });
    expect(within(card).getByRole('img', { name: 'Status: Idle' })).toBeTruthy();
    expect(within(card).getByText('On demand')).toBeTruthy();
    expect(within(card).getByText('Cached catalog')).toBeTruthy();
    expect(within(card).getByText('started in 0.9 s')).toBeTruthy();
  });

  it('says what to do when there are no servers', async () => {
    await renderWithStore(<BackendsScreen />);
    expect(screen.getByRole('heading', { name: 'No servers yet' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Add your first server' })).toBeTruthy();
  });

  it('shows each backend with health, counts, restarts, last error and stderr', async () => {
    await renderWithStore(<BackendsScreen />, (client) =>
      client.handle('backends.list', () => [view('alpha', 'up'), view('beta', 'down')]),
    );
    const beta = screen.getByRole('article', { name: 'beta' });
    expect(within(beta).getByRole('img', { name: /^Status: / }).textContent).toContain('Down');
    // beta never came up (no completed start): a restart count would mislead.
    expect(beta.textContent).not.toContain('restarts');
    expect(beta.textContent).toContain('exited with code 1');
    expect(within(beta).getByText('stderr (2 lines)')).toBeTruthy();
    const alpha = screen.getByRole('article', { name: 'alpha' });
    expect(within(alpha).getByRole('img', { name: 'Status: Up' }).textContent).toContain('Up');
    expect(alpha.textContent).toContain('4 restarts');
  });

  it("keeps one live summary for the screen; the cards' badges are not live regions", async () => {
    const { client } = await renderWithStore(<BackendsScreen />, (c) =>
      c.handle('backends.list', () => [view('alpha', 'up'), view('beta', 'down')]),
    );
    expect(screen.getAllByRole('status').map((region) => region.textContent)).toEqual(['1 of 2 up']);
    expect(document.querySelectorAll('.cards [role="status"], .cards [aria-live], .cards [role="alert"]')).toHaveLength(
      0,
    );
    client.handle('backends.list', () => [view('alpha', 'up'), view('beta', 'up')]);
    act(() => client.emit('backendsChanged', {}));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('2 of 2 up'));
  });

  it('removes a backend only after confirmation', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<BackendsScreen />, (c) =>
      c.handle('backends.list', () => [view('alpha', 'up')]),
    );
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove alpha?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(client.count('backends.remove')).toBe(0);
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(client.calls.find((c) => c.method === 'backends.remove')?.params).toEqual({ id: 'alpha' }),
    );
  });

  it('shows a failed action inline', async () => {
    const user = userEvent.setup();
    await renderWithStore(<BackendsScreen />, (c) => {
      c.handle('backends.list', () => [view('alpha', 'up')]);
      c.handle('backends.restart', () => ({ error: { code: 'timeout', message: 'restart timed out' } }));
    });
    await user.click(screen.getByRole('button', { name: 'Restart' }));
    expect((await screen.findByRole('alert')).textContent).toContain('restart timed out');
  });
});

describe('Add server', () => {
  afterEach(cleanup);

  it('keeps what the user typed when the check fails, and stores secrets before adding', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<AddServerScreen />, (c) =>
      c.handle('backends.add', () => ({ error: { code: 'connect_failed', message: 'spawn nope ENOENT' } })),
    );
    await user.click(screen.getByRole('tab', { name: 'Command or URL' }));
    await user.type(screen.getByRole('textbox', { name: /Name/ }), 'mine');
    await user.type(screen.getByRole('textbox', { name: 'Command' }), 'nope');
    await user.click(screen.getByRole('button', { name: '+ Add variable' }));
    await user.type(screen.getByRole('textbox', { name: 'Variable 1 name' }), 'TOKEN');
    // A secret-looking name: secret (a masked value, stored in the keychain) without touching the switch.
    expect(screen.getByRole<HTMLInputElement>('switch', { name: 'Variable 1 secret' }).checked).toBe(true);
    await user.type(screen.getByLabelText('Variable 1 value'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect((await screen.findByRole('alert')).textContent).toContain('spawn nope ENOENT');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Command' }).value).toBe('nope');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: /Name/ }).value).toBe('mine');
    const methods = client.calls.map((c) => c.method);
    expect(methods.indexOf('secrets.set')).toBeLessThan(methods.indexOf('backends.add'));
    expect(client.calls.find((c) => c.method === 'backends.add')?.params).toEqual({
      id: 'mine',
      entry: { command: 'nope', args: [], env: { TOKEN: { secret: 'mine.TOKEN' } }, sandbox: true },
    });
  });

  it('adds a well-known server with its fields', async () => {
    const user = userEvent.setup();
    const { client, store } = await renderWithStore(<AddServerScreen />, (c) =>
      c.handle('backends.add', (params) => view(params.id, 'up')),
    );
    // The Featured row sits above the registry search, on the first tab.
    await user.click(
      within(screen.getByRole('group', { name: 'Featured servers' })).getByRole('button', { name: /Filesystem/ }),
    );
    await user.click(screen.getByRole('button', { name: 'Add Filesystem' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Folder to share is required.');
    await user.type(screen.getByRole('textbox', { name: 'Folder to share' }), '/srv');
    await user.click(screen.getByRole('button', { name: 'Add Filesystem' }));
    await waitFor(() => expect(store.getState().screen).toBe('backends'));
    expect(client.calls.find((c) => c.method === 'backends.add')?.params).toMatchObject({
      id: 'filesystem',
      entry: { args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv'] },
    });
  });
});
