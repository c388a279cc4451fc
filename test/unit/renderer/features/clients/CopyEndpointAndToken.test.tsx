// @vitest-environment jsdom
/**
 * The endpoint URL and a token shown once each have a Copy button that puts
 * exactly that text on the clipboard and says so.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { EndpointPanel } from '../../../../../renderer/src/features/clients/EndpointPanel.js';
import { ProfilesPanel } from '../../../../../renderer/src/features/clients/ProfilesPanel.js';
import { renderWithStore } from '../../renderWithStore.js';

describe('Copy buttons for the endpoint and tokens', () => {
  afterEach(cleanup);

  it('copies the endpoint URL', async () => {
    const user = userEvent.setup();
    await renderWithStore(<EndpointPanel />);
    const url = screen.getByLabelText('Endpoint URL').textContent;
    const button = screen.getByRole('button', { name: 'Copy endpoint URL' });
    await user.click(button);
    expect(await navigator.clipboard.readText()).toBe(url);
    expect(button.textContent).toBe('Copied');
  });

  it('copies a new token from the dialog that shows it once', async () => {
    const user = userEvent.setup();
    await renderWithStore(<ProfilesPanel />, (c) => {
      c.handle('profiles.list', () => []);
      c.handle('profiles.createToken', () => ({ token: 'token-1-abcdefghijklmnop' }));
    });
    await user.type(screen.getByRole('textbox', { name: 'Profile ID' }), 'laptop');
    await user.type(screen.getByRole('textbox', { name: 'Profile name' }), 'Laptop');
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const once = await screen.findByRole('dialog', { name: 'Copy the token now' });
    const button = within(once).getByRole('button', { name: 'Copy token' });
    await user.click(button);
    expect(await navigator.clipboard.readText()).toBe('token-1-abcdefghijklmnop');
    expect(button.textContent).toBe('Copied');
  });
});
