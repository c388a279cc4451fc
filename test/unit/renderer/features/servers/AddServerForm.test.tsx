// @vitest-environment jsdom
/**
 * The Add server form: secret-looking names (`*_TOKEN`, `*_KEY`, `*SECRET*`,
 * `*PASSWORD*`) default to secret with a visible switch that makes a row
 * plain; adding shows its step with the seconds counting; a pasted snippet
 * without a keychain asks where secrets go, and its card never claims the
 * keychain when they went elsewhere.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import { AddServerScreen } from '../../../../../renderer/src/features/servers/AddServerScreen.js';
import type { BackendView } from '../../../../../shared/model/views.js';
import { withElementSize } from '../../jsdomLayout.js';
import { renderWithStore } from '../../renderWithStore.js';

afterEach(cleanup);
withElementSize();

const user = () => userEvent.setup();

it('secret-looking names default to secret; the switch makes a row plain and a rename keeps that', async () => {
  const u = user();
  const { client } = await renderWithStore(<AddServerScreen />, (c) => {
    c.handle('registry.search', () => ({ error: { code: 'registry_unavailable', message: 'offline' } }));
    c.handle('backends.add', () => ({ error: { code: 'connect_failed', message: 'no' } }));
  });
  await u.click(screen.getByRole('tab', { name: 'Command or URL' }));
  const form = screen.getByRole('form', { name: 'Server settings' });
  for (const name of ['GITHUB_TOKEN', 'OPENAI_KEY', 'MY_SECRET_X', 'DB_PASSWORD', 'LEVEL']) {
    await u.click(within(form).getByRole('button', { name: '+ Add variable' }));
    const rows = within(form).getAllByRole('textbox', { name: /^Variable \d+ name$/ });
    await u.type(rows.at(-1)!, name);
  }
  const secret = (n: number) => within(form).getByRole('switch', { name: `Variable ${n} secret` }) as HTMLInputElement;
  expect([1, 2, 3, 4, 5].map((n) => secret(n).checked)).toEqual([true, true, true, true, false]);
  expect(within(form).getAllByText('secret (keychain)')).toHaveLength(4);
  // Made plain by hand: renaming the row no longer flips it back.
  await u.click(secret(1));
  expect(secret(1).checked).toBe(false);
  await u.type(within(form).getByRole('textbox', { name: 'Variable 1 name' }), '2');
  expect(secret(1).checked).toBe(false);

  await u.type(within(form).getByRole('textbox', { name: /^Name/ }), 'srv');
  await u.type(within(form).getByRole('textbox', { name: 'Command' }), 'node');
  for (const n of [1, 2, 3, 4, 5]) await u.type(within(form).getByLabelText(`Variable ${n} value`), `v${n}`);
  await u.click(within(form).getByRole('button', { name: 'Add' }));
  await waitFor(() => expect(client.calls.some((c) => c.method === 'backends.add')).toBe(true));
  expect(client.calls.filter((c) => c.method === 'secrets.set').map((c) => c.params)).toEqual([
    { name: 'srv.OPENAI_KEY', value: 'v2' },
    { name: 'srv.MY_SECRET_X', value: 'v3' },
    { name: 'srv.DB_PASSWORD', value: 'v4' },
  ]);
  const added = client.calls.find((c) => c.method === 'backends.add')?.params as { entry: { env: unknown } };
  expect(added.entry.env).toEqual({
    GITHUB_TOKEN2: 'v1',
    OPENAI_KEY: { secret: 'srv.OPENAI_KEY' },
    MY_SECRET_X: { secret: 'srv.MY_SECRET_X' },
    DB_PASSWORD: { secret: 'srv.DB_PASSWORD' },
    LEVEL: 'v5',
  });
});

it('shows the step of an add while it runs, with the seconds counting', async () => {
  const u = user();
  let finish: (view: BackendView) => void = () => undefined;
  await renderWithStore(<AddServerScreen />, (c) => {
    c.handle('registry.search', () => ({ error: { code: 'registry_unavailable', message: 'offline' } }));
    c.handle('backends.add', () => new Promise<BackendView>((resolve) => (finish = resolve)));
  });
  await u.click(screen.getByRole('tab', { name: 'Command or URL' }));
  const form = screen.getByRole('form', { name: 'Server settings' });
  await u.type(within(form).getByRole('textbox', { name: /^Name/ }), 'srv');
  await u.type(within(form).getByRole('textbox', { name: 'Command' }), 'node');
  await u.click(within(form).getByRole('button', { name: 'Add' }));
  const status = await within(form).findByRole('status');
  expect(status.textContent).toBe('Starting… listing tools… 0 s');
  await waitFor(() => expect(status.textContent).toBe('Starting… listing tools… 1 s'), { timeout: 3000 });
  finish({} as BackendView);
  await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
});

it('a pasted secret without a keychain: asks, then the card names the variable and never says keychain', async () => {
  const u = user();
  const { client } = await renderWithStore(<AddServerScreen />, (c) => {
    c.handle('registry.search', () => ({ error: { code: 'registry_unavailable', message: 'offline' } }));
    c.handle('backends.parseSnippet', (params) =>
      params.secretStorage
        ? {
            servers: [
              {
                id: 'gh',
                entry: { command: 'npx', env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } },
                secrets: [{ field: 'env.GITHUB_TOKEN', reference: '${GITHUB_TOKEN}', place: 'environment' as const }],
              },
            ],
            problems: [],
          }
        : {
            error: {
              code: 'input_invalid',
              message: 'there is no OS keychain',
              data: {
                field: 'secretStorage',
                variables: [{ field: 'gh: env.GITHUB_TOKEN', variable: 'GITHUB_TOKEN', set: false }],
              },
            },
          },
    );
  });
  await u.click(screen.getByRole('tab', { name: 'Paste JSON' }));
  await u.type(screen.getByRole('textbox', { name: /Paste a config snippet/ }), 'x');
  await u.click(screen.getByRole('button', { name: 'Review servers' }));
  const again = await screen.findByRole('button', { name: 'Review with this choice' });
  expect((again as HTMLButtonElement).disabled).toBe(true);
  await u.click(screen.getByRole('radio', { name: /An environment variable/ }));
  await u.click(again);
  const found = await screen.findByRole('region', { name: 'Servers found' });
  expect(found.textContent).toContain('export GITHUB_TOKEN=…');
  expect(found.textContent).not.toContain('keychain');
  expect(client.calls.filter((c) => c.method === 'backends.parseSnippet').map((c) => c.params)).toEqual([
    { text: 'x' },
    { text: 'x', secretStorage: 'reference' },
  ]);
});
