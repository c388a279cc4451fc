// @vitest-environment jsdom
/** People signed in to per-caller servers: listed with who and since when, one revoked only after confirming. */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallerConnectionView } from '../../../../../shared/model/connectionViews.js';
import { PeopleConnectionsPanel } from '../../../../../renderer/src/features/clients/PeopleConnectionsPanel.js';
import { renderWithStore } from '../../renderWithStore.js';

const alice: CallerConnectionView = {
  server: 'github',
  caller: 'principal:https://login.example.com#a1',
  person: 'alice@example.com',
  since: new Date(Date.now() - 5 * 60_000).toISOString(),
  expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
};
const bob: CallerConnectionView = { server: 'github', caller: 'principal:https://login.example.com#b2', person: 'b2' };

describe('People signed in to servers panel', () => {
  afterEach(cleanup);

  it('lists each person and revokes the chosen one after confirmation, then lists again', async () => {
    const user = userEvent.setup();
    let list = [alice, bob];
    const { client } = await renderWithStore(<PeopleConnectionsPanel />, (c) => {
      c.handle('connections.everyone', () => list);
      c.handle('connections.revokeCaller', (params) => {
        list = list.filter((view) => view.caller !== params.caller);
        return { revoked: true };
      });
    });
    const panel = await screen.findByRole('region', { name: 'People signed in to servers' });
    await waitFor(() => expect(within(panel).getAllByRole('row')).toHaveLength(3));
    expect(within(panel).getByText('alice@example.com')).toBeTruthy();
    expect(within(panel).getByText('5 min ago')).toBeTruthy();
    await user.click(within(panel).getByRole('button', { name: 'Revoke alice@example.com on github' }));
    expect(client.calls.some((call) => call.method === 'connections.revokeCaller')).toBe(false);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(within(panel).getAllByRole('row')).toHaveLength(2));
    expect(client.calls.find((call) => call.method === 'connections.revokeCaller')?.params).toEqual({
      server: 'github',
      caller: alice.caller,
    });
  });

  it('shows nothing when nobody is signed in to such a server', async () => {
    const { client } = await renderWithStore(<PeopleConnectionsPanel />, (c) => {
      c.handle('connections.everyone', () => []);
    });
    await waitFor(() => expect(client.calls.some((call) => call.method === 'connections.everyone')).toBe(true));
    expect(screen.queryByRole('region', { name: 'People signed in to servers' })).toBeNull();
  });
});
