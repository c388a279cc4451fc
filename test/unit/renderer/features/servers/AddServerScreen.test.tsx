// @vitest-environment jsdom
/**
 * The Add server screen's first tab: the Featured row sits above the
 * registry search and works with no registry reachable; a featured server
 * whose runtime is not installed shows the install link and Retry, which
 * tries again.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, expect, it } from 'vitest';
import { AddServerScreen } from '../../../../../renderer/src/features/servers/AddServerScreen.js';
import { SERVER_PRESETS } from '../../../../../shared/presets.js';
import { ErrorCode } from '../../../../../shared/errors.js';
import { withElementSize } from '../../jsdomLayout.js';
import { renderWithStore } from '../../renderWithStore.js';

afterEach(cleanup);
withElementSize();

const UVX_MISSING = {
  code: ErrorCode.RuntimeMissing,
  message: 'uvx is not found on PATH (/usr/bin:/bin): install uv (uvx) from https://docs.astral.sh/uv/, then retry',
  data: { command: 'uvx', runtime: 'uv (uvx)', installUrl: 'https://docs.astral.sh/uv/getting-started/installation/' },
};

it('shows the Featured row above the registry search, also when the registry does not answer', async () => {
  await renderWithStore(<AddServerScreen />, (c) =>
    c.handle('registry.search', () => ({ error: { code: 'registry_unavailable', message: 'fetch failed' } })),
  );
  const row = screen.getByRole('group', { name: 'Featured servers' });
  expect(within(row).getAllByRole('button')).toHaveLength(SERVER_PRESETS.length);
  const search = screen.getByRole('searchbox', { name: 'Search the MCP Registry' });
  // The row comes first in the document, then the search.
  expect(row.compareDocumentPosition(search) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  expect((await screen.findByRole('alert')).textContent).toContain('The registry did not answer');
  expect(within(row).getByRole('button', { name: /Memory/ })).toBeTruthy();
});

it('a missing runtime shows its install link and Retry, which tries again', async () => {
  const user = userEvent.setup();
  let attempts = 0;
  const { client } = await renderWithStore(<AddServerScreen />, (c) => {
    c.handle('backends.add', () => {
      attempts++;
      return { error: UVX_MISSING };
    });
  });
  await user.click(
    within(screen.getByRole('group', { name: 'Featured servers' })).getByRole('button', { name: /Fetch/ }),
  );
  const form = screen.getByRole('form', { name: 'Add Fetch' });
  await user.click(within(form).getByRole('button', { name: 'Add Fetch' }));
  const link = await within(form).findByRole('link', { name: 'Install uv (uvx)' });
  expect(link.getAttribute('href')).toBe('https://docs.astral.sh/uv/getting-started/installation/');
  expect(within(form).getByRole('alert').textContent).toContain('uvx is not found on PATH');
  await user.click(within(form).getByRole('button', { name: 'Retry' }));
  await waitFor(() => expect(attempts).toBe(2));
  expect(client.calls.filter((c) => c.method === 'backends.add').map((c) => c.params)).toEqual([
    { id: 'fetch', entry: { command: 'uvx', args: ['mcp-server-fetch'], sandbox: true } },
    { id: 'fetch', entry: { command: 'uvx', args: ['mcp-server-fetch'], sandbox: true } },
  ]);
});
