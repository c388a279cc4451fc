// @vitest-environment jsdom
/**
 * A remote OAuth backend's card: the Authorize action shows a link to the
 * sign-in page (no browser may have opened, e.g. a headless serve), and the
 * link goes once the backend is signed in, so a later sign-out shows no stale one.
 */
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackendView } from '../../../../../shared/model/views.js';
import { BackendsScreen } from '../../../../../renderer/src/features/servers/BackendsScreen.js';
import { renderWithStore } from '../../renderWithStore.js';

const SIGN_IN = 'http://127.0.0.1:9/auth?client_id=x&state=s';

const remote = (status: 'needs-authorization' | 'up'): BackendView => ({
  health: {
    id: 'prot',
    transport: 'http',
    status,
    settled: true,
    warnings: [],
    counts: { tools: status === 'up' ? 2 : 0, resources: 0, resourceTemplates: 0, prompts: 0 },
    probeFailures: 0,
    restarts: 0,
    outstandingRequests: 0,
    auth:
      status === 'up'
        ? { state: 'authorized' }
        : { state: 'needs-authorization', reason: 'the server requires authorization' },
    ...(status === 'up'
      ? {}
      : {
          lastError: {
            code: 'authorization_required',
            message: 'backend "prot" needs authorization (run `mcp-switchboard authorize prot`)',
            at: new Date().toISOString(),
          },
        }),
  },
  enabled: true,
  target: 'http://127.0.0.1:9/mcp',
  entry: { url: 'http://127.0.0.1:9/mcp' },
});

describe('Authorize on a remote backend', () => {
  afterEach(cleanup);

  it('links to the sign-in page, and drops the link once the backend is up', async () => {
    const user = userEvent.setup();
    let status: 'needs-authorization' | 'up' = 'needs-authorization';
    const { client } = await renderWithStore(<BackendsScreen />, (c) => {
      c.handle('backends.list', () => [remote(status)]);
      c.handle('backends.authorize', () => ({ authorizationUrl: SIGN_IN }));
    });
    const card = screen.getByRole('article', { name: 'prot' });
    expect(within(card).getByRole('img', { name: /^Status: / }).textContent).toContain('Needs authorization');
    await user.click(within(card).getByRole('button', { name: 'Authorize' }));
    const link = await within(card).findByRole('link', { name: 'the sign-in page' });
    expect(link.getAttribute('href')).toBe(SIGN_IN);
    expect(client.calls.find((c) => c.method === 'backends.authorize')?.params).toEqual({ id: 'prot' });

    status = 'up';
    act(() => client.emit('backendsChanged', { backendId: 'prot' }));
    await waitFor(() => expect(within(card).getByRole('img', { name: /^Status: / }).textContent).toContain('Up'));
    expect(within(card).queryByRole('link', { name: 'the sign-in page' })).toBeNull();
    expect(within(card).getByRole('button', { name: 'Sign out' })).toBeTruthy();

    status = 'needs-authorization';
    act(() => client.emit('backendsChanged', { backendId: 'prot' }));
    await waitFor(() =>
      expect(within(card).getByRole('img', { name: /^Status: / }).textContent).toContain('Needs authorization'),
    );
    expect(within(card).queryByRole('link', { name: 'the sign-in page' })).toBeNull();
  });

  it('shows a needed sign-in as a step to take here, not as an error with CLI wording', async () => {
    await renderWithStore(<BackendsScreen />, (c) => c.handle('backends.list', () => [remote('needs-authorization')]));
    const card = screen.getByRole('article', { name: 'prot' });
    expect(card.textContent).toContain('Sign-in needed: the server requires authorization. Use Authorize below.');
    expect(card.textContent).not.toContain('Last error');
    expect(card.textContent).not.toContain('mcp-switchboard authorize');
  });
});
