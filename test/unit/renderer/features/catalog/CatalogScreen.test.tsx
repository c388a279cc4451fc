// @vitest-environment jsdom
/**
 * The Catalog screen: search narrows the grouped list, the detail pane shows
 * the schema and annotations, and "try it" validates before calling.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { CatalogEntry } from '../../../../../shared/model/views.js';
import { CatalogScreen } from '../../../../../renderer/src/features/catalog/CatalogScreen.js';
import { withElementSize } from '../../jsdomLayout.js';
import { renderWithStore } from '../../renderWithStore.js';

const echo: CatalogEntry = {
  kind: 'tool',
  backendId: 'everything',
  exposed: 'everything_echo',
  original: 'echo',
  description: 'Echoes back the input',
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string', description: 'Message to echo' }, times: { type: 'integer' } },
    required: ['message'],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};
const add: CatalogEntry = {
  ...echo,
  exposed: 'everything_add',
  original: 'add',
  description: 'Adds two numbers',
  annotations: {},
};
const prompt: CatalogEntry = { kind: 'prompt', backendId: 'memory', exposed: 'memory_summary', original: 'summary' };

describe('Catalog screen', () => {
  afterEach(cleanup);
  withElementSize();

  it('groups by backend, counts by kind and filters as you type', async () => {
    const user = userEvent.setup();
    await renderWithStore(<CatalogScreen />, (c) => c.handle('catalog.list', () => [echo, add, prompt]));
    const list = screen.getByRole('listbox', { name: 'Catalog items' });
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.getAttribute('aria-label')),
    ).toEqual(['everything_echo', 'everything_add', 'memory_summary']);
    expect(list.textContent).toContain('everything · 2');
    expect(screen.getByRole('tab', { name: /Tools/ }).textContent).toContain('2');
    await user.type(screen.getByRole('searchbox', { name: 'Search the catalog' }), 'numbers');
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.getAttribute('aria-label')),
    ).toEqual(['everything_add']);
  });

  it('shows details, validates the generated form, then calls the tool and shows the result', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<CatalogScreen />, (c) => {
      c.handle('catalog.list', () => [echo]);
      c.handle('catalog.callTool', (params) => ({
        isError: false,
        content: [
          { type: 'text', text: `Echo: ${String(params.arguments['message'])}` },
          { type: 'text', text: '{"a":1}' },
        ],
        durationMs: 3,
      }));
    });
    await user.click(screen.getByRole('option', { name: 'everything_echo' }));
    const detail = screen.getByRole('region', { name: 'Details of everything_echo' });
    expect(within(detail).getByText('Read-only')).toBeTruthy();
    expect(within(detail).getByText('echo')).toBeTruthy();
    const schema = within(detail).getByRole('table', { name: 'Input schema' });
    expect(schema.textContent).toContain('Message to echo');
    expect(schema.textContent).toContain('required');

    await user.click(within(detail).getByRole('button', { name: 'Call tool' }));
    expect((await within(detail).findByRole('alert')).textContent).toContain('message is required');
    expect(client.count('catalog.callTool')).toBe(0);

    await user.type(within(detail).getByRole('textbox', { name: /message/ }), 'hi');
    await user.type(within(detail).getByRole('spinbutton', { name: /times/ }), '2');
    await user.click(within(detail).getByRole('button', { name: 'Call tool' }));
    const result = await within(detail).findByRole('region', { name: 'Result' });
    expect(result.textContent).toContain('Echo: hi');
    expect(within(result).getByLabelText('JSON result').textContent).toBe('{\n  "a": 1\n}');
    await waitFor(() =>
      expect(client.calls.find((c) => c.method === 'catalog.callTool')?.params).toEqual({
        name: 'everything_echo',
        arguments: { message: 'hi', times: 2 },
        callId: expect.any(String),
      }),
    );
  });

  it('moves the selection with the arrow keys', async () => {
    const user = userEvent.setup();
    const { store } = await renderWithStore(<CatalogScreen />, (c) => c.handle('catalog.list', () => [echo, add]));
    screen.getByRole('listbox').focus();
    await user.keyboard('{ArrowDown}');
    expect(store.getState().selectedCatalogKey).toBe('tool:everything_echo');
    await user.keyboard('{ArrowDown}');
    expect(store.getState().selectedCatalogKey).toBe('tool:everything_add');
  });
});
