// @vitest-environment jsdom
/**
 * The shell: navigation by role, and the disconnected banner.
 */
import { act, cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../../renderer/src/app/App.js';
import { renderWithStore } from '../renderWithStore.js';

describe('App shell', () => {
  afterEach(cleanup);

  it('navigates between screens and marks the current one', async () => {
    const user = userEvent.setup();
    await renderWithStore(<App />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Servers');
    for (const [button, heading] of [
      ['Catalog', 'Catalog'],
      ['Authorization', 'Authorization'],
      ['Clients', 'Clients'],
      ['Add server', 'Add a server'],
    ] as const) {
      await user.click(within(nav).getByRole('button', { name: button }));
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(heading);
      expect(within(nav).getByRole('button', { name: button }).getAttribute('aria-current')).toBe('page');
    }
  });

  it('shows "disconnected — reconnecting" while the pipe is down', async () => {
    const { client } = await renderWithStore(<App />);
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => client.setConnection('reconnecting'));
    expect(screen.getByRole('alert').textContent).toBe('Disconnected — reconnecting…');
    act(() => client.setConnection('open'));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
