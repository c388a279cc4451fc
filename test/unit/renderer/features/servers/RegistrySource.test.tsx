// @vitest-environment jsdom
/**
 * A server card says where a backend added from a registry came from (the
 * registry, name and version) and "update available: X" when
 * `registry.outdated` lists a newer version; a failed check shows no update,
 * and a backend not from a registry shows neither. Update shows what changes
 * (asked with dryRun) and applies only when confirmed.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackendView } from '../../../../../shared/model/views.js';
import { BackendsScreen } from '../../../../../renderer/src/features/servers/BackendsScreen.js';
import { renderWithStore } from '../../renderWithStore.js';

const NAME = 'io.github.modelcontextprotocol/server-memory';

const view = (id: string, entry: Record<string, unknown>): BackendView => ({
  health: {
    id,
    transport: 'stdio',
    status: 'up',
    settled: true,
    warnings: [],
    counts: { tools: 1, resources: 0, resourceTemplates: 0, prompts: 0 },
    probeFailures: 0,
    restarts: 0,
    outstandingRequests: 0,
  },
  enabled: true,
  target: 'npx -y @modelcontextprotocol/server-memory@2026.8.31',
  entry,
});

const backends = (): BackendView[] => [
  view('memory', {
    command: 'npx',
    source: { registry: 'https://registry.modelcontextprotocol.io', name: NAME, version: '2026.8.31', inputs: {} },
  }),
  view('local', { command: 'node', args: ['server.js'] }),
];

describe('registry source on the server card', () => {
  afterEach(cleanup);

  it('shows the registry, name and version, and the newer version the registry has', async () => {
    const { client } = await renderWithStore(<BackendsScreen />, (c) => {
      c.handle('backends.list', backends);
      c.handle('registry.outdated', () => [{ id: 'memory', name: NAME, current: '2026.8.31', latest: '2026.9.1' }]);
    });
    const card = screen.getByRole('article', { name: 'memory' });
    expect(within(card).getByText(/^From /).textContent).toBe(
      `From registry.modelcontextprotocol.io: ${NAME} 2026.8.31`,
    );
    expect((await within(card).findByText(/update available/)).textContent).toBe('update available: 2026.9.1');
    const local = screen.getByRole('article', { name: 'local' });
    expect(within(local).queryByText(/^From /)).toBeNull();
    expect(within(local).queryByText(/update available/)).toBeNull();
    expect(client.calls.filter((c) => c.method === 'registry.outdated')).toHaveLength(1);
  });

  it('shows no update when the check fails (e.g. offline), only where it came from', async () => {
    const { client } = await renderWithStore(<BackendsScreen />, (c) => {
      c.handle('backends.list', backends);
      c.handle('registry.outdated', () => ({ error: { code: 'registry_unavailable', message: 'offline' } }));
    });
    await waitFor(() => expect(client.calls.some((c) => c.method === 'registry.outdated')).toBe(true));
    const card = screen.getByRole('article', { name: 'memory' });
    expect(within(card).getByText(/^From /).textContent).toContain('2026.8.31');
    expect(within(card).queryByText(/update available/)).toBeNull();
    expect(screen.queryByText(/offline/)).toBeNull();
  });

  it('Update shows what changes before anything is applied, then applies it', async () => {
    const plan = {
      id: 'memory',
      from: '2026.8.31',
      to: '2026.9.1',
      changes: [
        { field: 'version', from: '2026.8.31', to: '2026.9.1' },
        { field: 'args', from: '["-y","a@1"]', to: '["-y","a@2"]' },
        { field: 'env', from: 'A', to: 'B', added: ['B'], removed: ['A'] },
      ],
      applied: false,
    };
    const { client } = await renderWithStore(<BackendsScreen />, (c) => {
      c.handle('backends.list', backends);
      c.handle('registry.outdated', () => [{ id: 'memory', name: NAME, current: '2026.8.31', latest: '2026.9.1' }]);
      c.handle('registry.update', (params) => ({ ...plan, applied: params.dryRun !== true }));
    });
    const card = screen.getByRole('article', { name: 'memory' });
    fireEvent.click(await within(card).findByRole('button', { name: 'Update' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update memory' });
    const list = await within(dialog).findByLabelText('What changes');
    expect(list.textContent).toContain('Version2026.8.31 → 2026.9.1');
    expect(list.textContent).toContain('Arguments["-y","a@1"] → ["-y","a@2"]');
    expect(list.textContent).toContain('added: B');
    expect(list.textContent).toContain('removed: A');
    // Only the preview was asked for so far.
    expect(client.calls.filter((c) => c.method === 'registry.update').map((c) => c.params)).toEqual([
      { id: 'memory', dryRun: true },
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply update' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(client.calls.filter((c) => c.method === 'registry.update').map((c) => c.params)).toEqual([
      { id: 'memory', dryRun: true },
      { id: 'memory' },
    ]);
  });

  it('a failed update keeps the dialog open with the reason', async () => {
    await renderWithStore(<BackendsScreen />, (c) => {
      c.handle('backends.list', backends);
      c.handle('registry.outdated', () => [{ id: 'memory', name: NAME, current: '2026.8.31', latest: '2026.9.1' }]);
      c.handle('registry.update', (params) =>
        params.dryRun
          ? {
              id: 'memory',
              from: '2026.8.31',
              to: '2026.9.1',
              changes: [{ field: 'version', from: '2026.8.31', to: '2026.9.1' }],
              applied: false,
            }
          : { error: { code: 'connect_failed', message: 'memory did not start: boom; nothing was saved' } },
      );
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Update' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update memory' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Apply update' }));
    expect((await within(dialog).findByText(/did not start: boom/)).textContent).toContain('nothing was saved');
  });
});
