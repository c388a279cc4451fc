// @vitest-environment jsdom
/** The config file's kept copies: listed newest first, and one restored only after confirming. */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConfigBackupView } from '../../../../../shared/model/views.js';
import { ConfigBackupsPanel } from '../../../../../renderer/src/features/clients/ConfigBackupsPanel.js';
import { renderWithStore } from '../../renderWithStore.js';

const backup = (index: number): ConfigBackupView => ({
  index,
  savedAt: new Date(Date.now() - index * 60_000).toISOString(),
  size: 100 + index,
  path: `/state/backups/config/ab12cd34/${index}-config.json`,
});

describe('Config backups panel', () => {
  afterEach(cleanup);

  it('lists the copies and restores the chosen one after confirmation, then lists again', async () => {
    const user = userEvent.setup();
    let list = [backup(1), backup(2)];
    const { client } = await renderWithStore(<ConfigBackupsPanel />, (c) => {
      c.handle('config.backups', () => list);
      c.handle('config.restore', (params) => {
        list = [backup(1), backup(2), backup(3)];
        return backup(params.index ?? 1);
      });
    });
    const panel = screen.getByRole('region', { name: 'Config file' });
    await waitFor(() => expect(within(panel).getAllByRole('row')).toHaveLength(3));
    expect(within(panel).getByText('1 (newest)')).toBeTruthy();
    await user.click(within(panel).getByRole('button', { name: 'Restore copy 2' }));
    // Nothing is restored until the user confirms.
    expect(client.calls.some((call) => call.method === 'config.restore')).toBe(false);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(within(panel).getAllByRole('row')).toHaveLength(4));
    expect(client.calls.find((call) => call.method === 'config.restore')?.params).toEqual({ index: 2 });
    expect(within(panel).getByRole('status').textContent).toMatch(/kept as the newest copy/);
  });

  it('shows a refused restore as the error it is', async () => {
    const user = userEvent.setup();
    await renderWithStore(<ConfigBackupsPanel />, (c) => {
      c.handle('config.backups', () => [backup(1)]);
      c.handle('config.restore', () => ({
        error: { code: 'config_invalid', message: 'config.json: mcpServers.x.command: Required' },
      }));
    });
    const panel = screen.getByRole('region', { name: 'Config file' });
    await user.click(await within(panel).findByRole('button', { name: 'Restore copy 1' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Restore' }));
    expect(await within(panel).findByText(/mcpServers\.x\.command: Required/)).toBeTruthy();
  });
});
