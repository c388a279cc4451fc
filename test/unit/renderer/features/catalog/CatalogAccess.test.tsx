// @vitest-environment jsdom
/**
 * The Catalog as one profile gets it: the picker re-fetches for that profile,
 * a denied item is marked (and can be hidden), its switch saves for that
 * profile, the cost line, and search_tools as that profile in rank order.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { CatalogAccessView, CatalogEntry, ItemAccessView } from '../../../../../shared/model/views.js';
import { CatalogScreen } from '../../../../../renderer/src/features/catalog/CatalogScreen.js';
import { withElementSize } from '../../jsdomLayout.js';
import { renderWithStore } from '../../renderWithStore.js';
import type { FakeClient } from '../../fakeClient.js';

const tool = (original: string): CatalogEntry => ({
  kind: 'tool',
  backendId: 'gh',
  exposed: `gh__${original}`,
  original,
  description: `${original} things`,
  inputSchema: { type: 'object' },
});
const entries = [tool('search'), tool('delete_repo')];

function accessFor(profile: string): CatalogAccessView {
  const item = (original: string, patch: Partial<ItemAccessView>): ItemAccessView => ({
    backendId: 'gh',
    kind: 'tools',
    original,
    exposed: `gh__${original}`,
    rule: 'allow',
    source: 'default',
    inherited: 'allow',
    own: false,
    withheld: false,
    state: 'allowed',
    listed: true,
    tokens: 120,
    ...patch,
  });
  const cursor = profile === 'cursor';
  return {
    profile,
    name: cursor ? 'Cursor' : 'the main token',
    tools: {
      inForce: 'all',
      listed: cursor ? 1 : 2,
      tokens: 300,
      reachable: 2,
      allListed: cursor ? 1 : 2,
      allTokens: cursor ? 150 : 300,
      searchTokens: 210,
    },
    items: [
      item('search', {}),
      item('delete_repo', cursor ? { rule: 'deny', own: true, source: 'client', state: 'denied', listed: false } : {}),
    ],
  };
}

function setup(c: FakeClient) {
  c.handle('catalog.list', () => entries);
  c.handle('profiles.list', () => [{ id: 'cursor', name: 'Cursor', hasToken: true }]);
  c.handle('catalog.access', (params) => accessFor(params.profile ?? '*'));
  c.handle('catalog.search', (params) =>
    params.query.includes('delete')
      ? []
      : [
          { name: 'gh__search', server: 'gh', description: 'search things', inputSchema: {} },
          { name: 'gh__delete_repo', server: 'gh', description: 'delete_repo things', inputSchema: {} },
        ],
  );
}

describe('Catalog as seen by a profile', () => {
  afterEach(cleanup);
  withElementSize();

  it('marks what the chosen profile is denied, and hides it on request', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<CatalogScreen />, setup);
    expect(screen.getByLabelText('Tools/list cost').textContent).toBe(
      'The main token sees 2 tools, ~300 tokens; in search mode ~210',
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'As seen by' }), 'cursor');
    await waitFor(() => expect(client.calls.at(-1)?.params).toEqual({ profile: 'cursor' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Tools/list cost').textContent).toBe(
        'Cursor sees 1 tool, ~150 tokens; in search mode ~210',
      ),
    );
    const denied = screen.getByRole('option', { name: 'gh__delete_repo' });
    expect(denied.getAttribute('aria-description')).toBe('denied by your rule for Cursor');
    expect(denied.className).toContain('withheld');
    expect(screen.getByRole('option', { name: 'gh__search' }).getAttribute('aria-description')).toBeNull();
    expect(screen.getByRole('option', { name: 'gh__search' }).textContent).not.toContain('via search');
    await user.click(screen.getByRole('checkbox', { name: 'Only what Cursor gets' }));
    expect(screen.queryByRole('option', { name: 'gh__delete_repo' })).toBeNull();
  });

  it('switches an item for the chosen profile right in the detail pane', async () => {
    const user = userEvent.setup();
    const { client, store } = await renderWithStore(<CatalogScreen />, setup);
    store.getState().setCatalogProfile('cursor');
    await waitFor(() => screen.getByRole('option', { name: 'gh__delete_repo' }).getAttribute('aria-description'));
    await user.click(screen.getByRole('option', { name: 'gh__delete_repo' }));
    const detail = screen.getByRole('region', { name: 'Details of gh__delete_repo' });
    expect(within(detail).getByLabelText('Access for Cursor').textContent).toBe('denied by your rule for Cursor');
    const select = within(detail).getByRole('combobox', { name: 'Rule for gh__delete_repo for Cursor' });
    expect((select as HTMLSelectElement).value).toBe('deny');
    await user.selectOptions(select, 'ask');
    await waitFor(() =>
      expect(client.calls.find((c) => c.method === 'policy.setRules')?.params).toEqual({
        profile: 'cursor',
        rules: [{ backendId: 'gh', kind: 'tools', original: 'delete_repo', rule: 'ask' }],
      }),
    );
  });

  it('runs search_tools as the chosen profile and lists the results in rank order', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<CatalogScreen />, setup);
    await user.type(screen.getByRole('searchbox', { name: 'search_tools as the main token' }), 'find code');
    const results = await screen.findByRole('list', { name: 'search_tools results for the main token' });
    expect(
      within(results)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['gh__search', 'gh__delete_repo']);
    expect(client.calls.find((c) => c.method === 'catalog.search')?.params).toEqual({
      profile: '*',
      query: 'find code',
      limit: 8,
    });
    await user.click(within(results).getByRole('button', { name: 'gh__search' }));
    screen.getByRole('region', { name: 'Details of gh__search' });
  });
});

describe('Catalog as seen by a profile that goes away', () => {
  afterEach(cleanup);
  withElementSize();

  it('falls back to the main token when the chosen profile is revoked', async () => {
    let profiles = [{ id: 'cursor', name: 'Cursor', hasToken: true }];
    const { client, store } = await renderWithStore(<CatalogScreen />, (c) => {
      setup(c);
      c.handle('profiles.list', () => profiles);
    });
    store.getState().setCatalogProfile('cursor');
    await waitFor(() => expect(screen.getByLabelText('Tools/list cost').textContent).toMatch(/^Cursor sees/));
    profiles = [];
    client.emit('policyChanged', {});
    await waitFor(() => expect(store.getState().catalogProfile).toBe('*'));
    await waitFor(() => expect(screen.getByLabelText('Tools/list cost').textContent).toMatch(/^The main token sees/));
  });
});
