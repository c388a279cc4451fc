// @vitest-environment jsdom
/**
 * Settings shows the PATH of stdio servers (where it came from, in order, the
 * user's entries marked) and adds or removes a directory through
 * `env.setExtraPath`; a refused entry shows the core's reason and the list
 * stays as it was.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { PathView } from '../../../../../shared/model/registryViews.js';
import { SettingsScreen } from '../../../../../renderer/src/features/settings/SettingsScreen.js';
import { renderWithStore } from '../../renderWithStore.js';

const shell: PathView = { source: 'login-shell', path: ['/usr/local/bin', '/usr/bin', '/bin'], extra: [] };
const withExtra = (extra: string[]): PathView => ({ ...shell, path: [...extra, ...shell.path], extra });

describe('Settings: PATH of stdio servers', () => {
  afterEach(cleanup);

  it('shows where the PATH came from and adds a directory in front of it', async () => {
    const { client } = await renderWithStore(<SettingsScreen />, (c) => {
      c.handle('env.path', () => shell);
      c.handle('env.setExtraPath', ({ paths }) => withExtra(paths));
    });
    const panel = await screen.findByRole('region', { name: 'PATH of stdio servers' });
    expect(within(panel).getByRole('status').textContent).toBe('PATH from your login shell');
    const inForce = () => within(panel).getByRole('list', { name: 'PATH in force' });
    expect(
      within(inForce())
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(shell.path);
    fireEvent.change(within(panel).getByRole('textbox', { name: 'Directory to put in front' }), {
      target: { value: ' /opt/tools/bin ' },
    });
    fireEvent.click(within(panel).getByRole('button', { name: 'Add' }));
    await within(panel).findByRole('button', { name: 'Remove /opt/tools/bin' });
    expect(client.calls.filter((c) => c.method === 'env.setExtraPath').map((c) => c.params)).toEqual([
      { paths: ['/opt/tools/bin'] },
    ]);
    expect(within(inForce()).getAllByRole('listitem')[0]!.textContent).toBe('/opt/tools/bin (added by you)');
    fireEvent.click(within(panel).getByRole('button', { name: 'Remove /opt/tools/bin' }));
    await waitFor(() => expect(within(panel).queryByRole('button', { name: /^Remove/ })).toBeNull());
    expect(client.calls.filter((c) => c.method === 'env.setExtraPath').at(-1)!.params).toEqual({ paths: [] });
  });

  it('says why the login shell was not used, and shows a refused entry with the reason', async () => {
    await renderWithStore(<SettingsScreen />, (c) => {
      c.handle('env.path', () => ({ ...shell, source: 'fallback', reason: '/bin/zsh: timed out' }));
      c.handle('env.setExtraPath', () => ({
        error: { code: 'invalid_params', message: 'paths.0 ("tools"): must be an absolute directory path' },
      }));
    });
    const panel = await screen.findByRole('region', { name: 'PATH of stdio servers' });
    expect(within(panel).getByRole('status').textContent).toContain('(/bin/zsh: timed out)');
    fireEvent.change(within(panel).getByRole('textbox', { name: 'Directory to put in front' }), {
      target: { value: 'tools' },
    });
    fireEvent.click(within(panel).getByRole('button', { name: 'Add' }));
    const alert = await within(panel).findByRole('alert');
    expect(alert.textContent).toContain('must be an absolute directory path');
    // On the field itself: marked invalid and described by the message.
    const input = within(panel).getByRole('textbox', { name: 'Directory to put in front' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(alert.id);
    expect(within(panel).getByText(/None: add one/)).toBeTruthy();
    expect((within(panel).getByRole('textbox', { name: 'Directory to put in front' }) as HTMLInputElement).value).toBe(
      'tools',
    );
  });
});
