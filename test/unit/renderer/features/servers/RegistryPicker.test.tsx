// @vitest-environment jsdom
/**
 * The registry search of the Add server screen against a fake client: typing
 * sends one search once the user pauses (debounced), Load more passes the
 * cursor and appends, and the detail form sends the values it generated.
 */
import { cleanup, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import type { RegistryEntryView } from '../../../../../shared/model/registryViews.js';
import { RegistryPicker } from '../../../../../renderer/src/features/servers/RegistryPicker.js';
import { withElementSize } from '../../jsdomLayout.js';
import { renderWithStore } from '../../renderWithStore.js';

afterEach(cleanup);
// The list is virtualized: it renders rows only where there is layout.
withElementSize();

const entry = (n: number): RegistryEntryView => ({
  registry: 'http://registry.test',
  name: `io.github.test/server-${n}`,
  title: `Server ${n}`,
  version: '1.0.0',
  valid: true,
  description: `number ${n}`,
  kinds: ['npm'],
  options: [
    {
      choice: { package: 0 },
      kind: 'npm',
      label: `npx server-${n}@1.0.0`,
      runtime: 'npx',
      fields: [{ key: 'env:TOKEN', kind: 'env', name: 'TOKEN', required: true, secret: true, repeated: false }],
    },
  ],
});

it('debounces the search, pages with the cursor, and adds with the generated form', async () => {
  const user = userEvent.setup();
  const { client } = await renderWithStore(<RegistryPicker />, (c) => {
    c.handle('registry.search', (params) =>
      params.cursor === 'page-2'
        ? { entries: [entry(3)], offline: false, fetchedAt: Date.now(), failures: [] }
        : { entries: [entry(1), entry(2)], nextCursor: 'page-2', offline: false, fetchedAt: Date.now(), failures: [] },
    );
    c.handle('registry.add', () => ({ id: 'server-3', secrets: ['keychain:server-3.TOKEN'] }));
  });
  await user.type(screen.getByRole('searchbox', { name: 'Search the MCP Registry' }), 'serv');
  await screen.findByRole('button', { name: /Server 1/ });
  const searches = () => client.calls.filter((c) => c.method === 'registry.search').map((c) => c.params);
  // Typing sends one search for the whole word (besides perhaps one for the empty box at first), none per key.
  const texts = () => searches().map((p) => (p as { text: string }).text);
  await waitFor(() => expect(texts()).toContain('serv'));
  expect(texts().filter((t) => t !== '')).toEqual(['serv']);

  await user.click(screen.getByRole('button', { name: 'Load more' }));
  await screen.findByRole('button', { name: /Server 3/ });
  expect(searches().at(-1)).toEqual({ text: 'serv', cursor: 'page-2' });
  expect(screen.getByRole('button', { name: /Server 1/ })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

  await user.click(screen.getByRole('button', { name: /Server 3/ }));
  const secret = screen.getByLabelText(/TOKEN \(required\)/);
  expect(secret.getAttribute('type')).toBe('password');
  expect(secret.closest('label')!.textContent).toContain('TOKEN (required) — kept in the OS keychain');
  await user.type(secret, 's3cret');
  await user.click(screen.getByRole('button', { name: 'Add' }));
  await waitFor(() => expect(client.calls.some((c) => c.method === 'registry.add')).toBe(true));
  expect(client.calls.find((c) => c.method === 'registry.add')?.params).toEqual({
    ref: 'io.github.test/server-3@1.0.0',
    values: { 'env:TOKEN': 's3cret' },
    choice: { package: 0 },
  });
});

it('a remote that answered 401 is added and the sign-in link shows, instead of leaving the screen', async () => {
  const user = userEvent.setup();
  const { store } = await renderWithStore(<RegistryPicker />, (c) => {
    c.handle('registry.search', () => ({ entries: [entry(1)], offline: false, fetchedAt: Date.now(), failures: [] }));
    c.handle('registry.add', () => ({
      id: 'server-1',
      secrets: [],
      needsAuthorization: true,
      authorizationUrl: 'http://auth.test/authorize?x=1',
    }));
  });
  store.getState().setScreen('add');
  await user.click(await screen.findByRole('button', { name: /Server 1/ }));
  await user.type(screen.getByLabelText(/TOKEN \(required\)/), 't');
  await user.click(screen.getByRole('button', { name: 'Add' }));
  const note = await screen.findByText(/Sign-in needed/);
  expect(note.parentElement!.textContent).toContain('server-1 was added and asks you to sign in');
  expect(screen.getByRole('link', { name: 'the sign-in page' }).getAttribute('href')).toBe(
    'http://auth.test/authorize?x=1',
  );
  expect(store.getState().screen).toBe('add');
  await user.click(screen.getByRole('button', { name: 'Go to Servers' }));
  expect(store.getState().screen).toBe('backends');
});

it('without a keychain, asks where the secret goes, naming the variable, and sends the choice', async () => {
  const user = userEvent.setup();
  const { client, store } = await renderWithStore(<RegistryPicker />, (c) => {
    c.handle('registry.search', () => ({ entries: [entry(1)], offline: false, fetchedAt: Date.now(), failures: [] }));
    c.handle('registry.add', (params) =>
      params.secretStorage
        ? { id: 'server-1', secrets: ['${TOKEN}'] }
        : {
            error: {
              code: 'input_invalid',
              message: 'there is no OS keychain for env.TOKEN',
              data: { field: 'secretStorage', variables: [{ field: 'env.TOKEN', variable: 'TOKEN', set: false }] },
            },
          },
    );
  });
  store.getState().setScreen('add');
  await user.click(await screen.findByRole('button', { name: /Server 1/ }));
  await user.type(screen.getByLabelText(/TOKEN \(required\)/), 't');
  await user.click(screen.getByRole('button', { name: 'Add' }));
  const choice = await screen.findByRole('group', { name: 'No OS keychain: where should the secrets go?' });
  const variable = screen.getByRole('radio', { name: /An environment variable/ });
  expect(variable.parentElement!.textContent).toContain('export TOKEN=…');
  expect(screen.getByRole('radio', { name: /config\.json/ }).parentElement!.textContent).toContain('plain text');
  expect(choice).toBeTruthy();
  // Asked where the secret goes, the field no longer promises the keychain: it says where the value goes.
  const label = screen.getByLabelText(/TOKEN \(required\)/).closest('label')!.textContent;
  expect(label).toContain('TOKEN (required) — secret, no OS keychain on this machine: goes where you choose below');
  expect(label).not.toContain('kept in the OS keychain');
  // Nothing chosen yet: Add waits for the choice.
  expect((screen.getByRole('button', { name: 'Add' }) as HTMLButtonElement).disabled).toBe(true);
  await user.click(variable);
  await user.click(screen.getByRole('button', { name: 'Add' }));
  await waitFor(() => expect(store.getState().screen).toBe('backends'));
  expect(client.calls.filter((c) => c.method === 'registry.add').at(-1)?.params).toMatchObject({
    secretStorage: 'reference',
  });
});
