// @vitest-environment jsdom
/**
 * The Authorization screen: approving an `ask` call, per-item rules for the
 * chosen profile, and a changed tool definition shown old vs new.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthorizationScreen } from '../../../../../renderer/src/features/authorization/AuthorizationScreen.js';
import { renderWithStore } from '../../renderWithStore.js';

describe('Authorization screen', () => {
  afterEach(cleanup);

  it('approves a waiting call once', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<AuthorizationScreen />, (c) =>
      c.handle('approvals.list', () => [
        {
          id: 'ap1',
          client: 'cursor',
          backend: 'everything',
          tool: 'echo',
          exposed: 'everything_echo',
          arguments: { message: 'hi' },
          requestedAt: new Date().toISOString(),
        },
      ]),
    );
    const card = screen.getByRole('article', { name: 'Approval for everything_echo' });
    expect(card.textContent).toContain('"message": "hi"');
    await user.click(within(card).getByRole('button', { name: 'Approve once' }));
    await waitFor(() =>
      expect(client.calls.find((c) => c.method === 'approvals.resolve')?.params).toEqual({
        id: 'ap1',
        decision: 'once',
      }),
    );
  });

  it('sets a rule for one item under the chosen profile, and backend settings for everyone', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<AuthorizationScreen />, (c) => {
      c.handle('profiles.list', () => [{ id: 'cursor', name: 'Cursor', hasToken: true }]);
      c.handle('policy.get', (params) => ({
        profile: params.profile ?? '*',
        backends: [
          { id: 'everything', enabled: true, defaultRule: 'allow', pinning: false, capture: false, visible: true },
        ],
        items: [
          {
            backendId: 'everything',
            kind: 'tools',
            original: 'echo',
            exposed: 'everything_echo',
            rule: 'allow',
            source: 'default',
            withheld: false,
            inherited: 'allow',
            own: false,
          },
        ],
      }));
    });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rules for' }), 'cursor');
    await waitFor(() => expect(client.calls.at(-1)).toEqual({ method: 'policy.get', params: { profile: 'cursor' } }));
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Rule for everything_echo' }), 'ask');
    await waitFor(() =>
      expect(client.calls.find((c) => c.method === 'policy.setRule')?.params).toEqual({
        backendId: 'everything',
        kind: 'tools',
        original: 'echo',
        rule: 'ask',
        profile: 'cursor',
      }),
    );
    // Whether this profile sees the server at all: the profile's own switch.
    await user.click(screen.getByRole('checkbox', { name: 'cursor sees this server' }));
    await waitFor(() =>
      expect(client.calls.find((c) => c.method === 'policy.setBackend')?.params).toEqual({
        backendId: 'everything',
        profile: 'cursor',
        visible: false,
      }),
    );
    client.calls.length = 0;
    await user.click(screen.getByRole('checkbox', { name: 'Pin tool definitions' }));
    await waitFor(() =>
      expect(client.calls.find((c) => c.method === 'policy.setBackend')?.params).toEqual({
        backendId: 'everything',
        pinning: true,
      }),
    );
  });

  it('shows a changed definition old vs new and approves it', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<AuthorizationScreen />, (c) =>
      c.handle('pins.list', () => [
        {
          backend: 'mutable',
          tool: 'greet',
          pinned: { description: 'Says hello' },
          offered: { description: 'Sends your files away' },
          detectedAt: new Date().toISOString(),
        },
      ]),
    );
    const card = screen.getByRole('article', { name: 'Change of greet' });
    expect(card.textContent).toContain('Says hello');
    expect(card.textContent).toContain('Sends your files away');
    await user.click(within(card).getByRole('button', { name: 'Approve new definition' }));
    await waitFor(() =>
      expect(client.calls.find((c) => c.method === 'pins.approve')?.params).toEqual({
        backendId: 'mutable',
        tool: 'greet',
      }),
    );
  });

  it('calls its hide-from-clients switch "Clients may use it", not "Enabled" (that is the Servers screen\'s stop switch)', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<AuthorizationScreen />, (c) =>
      c.handle('policy.get', () => ({
        profile: '*',
        backends: [
          { id: 'everything', enabled: true, defaultRule: 'allow', pinning: false, capture: false, visible: true },
        ],
        items: [],
      })),
    );
    const settings = screen.getByRole('group', { name: 'everything settings' });
    expect(within(settings).queryByRole('checkbox', { name: 'Enabled' })).toBeNull();
    await user.click(within(settings).getByRole('checkbox', { name: 'Clients may use it' }));
    await waitFor(() =>
      expect(client.calls.find((c) => c.method === 'policy.setBackend')?.params).toEqual({
        backendId: 'everything',
        enabled: false,
      }),
    );
    expect(client.count('backends.setEnabled')).toBe(0);
  });
});
