// @vitest-environment jsdom
/**
 * The Authorization table grouped by server: collapsing a group, the filter
 * box, a bulk action writing one batch for the chosen profile, "inherit"
 * naming what it inherits, and the profile's exposure set here.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { PolicyItemView, PolicyView } from '../../../../../shared/model/views.js';
import { AuthorizationScreen } from '../../../../../renderer/src/features/authorization/AuthorizationScreen.js';
import type { FakeClient } from '../../fakeClient.js';
import { renderWithStore } from '../../renderWithStore.js';

const item = (backendId: string, original: string, patch: Partial<PolicyItemView> = {}): PolicyItemView => ({
  backendId,
  kind: 'tools',
  original,
  exposed: `${backendId}__${original}`,
  rule: 'allow',
  source: 'default',
  withheld: false,
  inherited: 'allow',
  own: false,
  ...patch,
});
const backend = (id: string) => ({
  id,
  enabled: true,
  defaultRule: 'allow' as const,
  pinning: true,
  capture: false,
  visible: true,
});

function setup(c: FakeClient) {
  c.handle('profiles.list', () => [{ id: 'cursor', name: 'Cursor', hasToken: true }]);
  c.handle('policy.get', (params): PolicyView => ({
    profile: params.profile ?? '*',
    backends: [backend('gh'), backend('fs')],
    items: [
      item('gh', 'search', { readOnly: true }),
      item('gh', 'create_issue', { rule: 'deny', own: true, source: 'item', inherited: 'allow' }),
      item('fs', 'read_file', { readOnly: true }),
      item('fs', 'write_file'),
    ],
    tools: { inForce: 'all', listed: 3, tokens: 900, reachable: 3 },
  }));
}

const rowNames = () =>
  screen
    .getAllByRole('combobox', { name: /^Rule for / })
    .map((select) => select.getAttribute('aria-label')!.replace('Rule for ', ''));

describe('Authorization grouped by server', () => {
  afterEach(cleanup);

  it('lists every server in one table, collapses a group and filters', async () => {
    const user = userEvent.setup();
    await renderWithStore(<AuthorizationScreen />, setup);
    expect(screen.getAllByRole('table')).toHaveLength(1);
    expect(rowNames()).toEqual(['gh__search', 'gh__create_issue', 'fs__read_file', 'fs__write_file']);
    const gh = screen.getByRole('button', { name: /^gh \d/ });
    await user.click(gh);
    expect(gh.getAttribute('aria-expanded')).toBe('false');
    expect(rowNames()).toEqual(['fs__read_file', 'fs__write_file']);
    await user.click(gh);
    await user.type(screen.getByRole('searchbox', { name: 'Filter servers and items' }), 'file');
    expect(rowNames()).toEqual(['fs__read_file', 'fs__write_file']);
    expect(screen.queryByRole('button', { name: /^gh \d/ })).toBeNull();
  });

  it('names what inherit gives for a row with its own rule', async () => {
    await renderWithStore(<AuthorizationScreen />, setup);
    const select = screen.getByRole('combobox', { name: 'Rule for gh__create_issue' }) as HTMLSelectElement;
    expect(select.value).toBe('deny');
    expect(within(select).getAllByRole('option')[0]?.textContent).toBe('inherit (allow)');
  });

  it('asks for the non-read-only tools of one server, for the chosen profile, in one call', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<AuthorizationScreen />, setup);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Rules for' }), 'cursor');
    await user.click(await screen.findByRole('button', { name: 'Ask for non-read-only tools of fs for cursor' }));
    await waitFor(() =>
      expect(client.calls.filter((c) => c.method === 'policy.setRules').map((c) => c.params)).toEqual([
        { profile: 'cursor', rules: [{ backendId: 'fs', kind: 'tools', original: 'write_file', rule: 'ask' }] },
      ]),
    );
  });

  it('shows and sets the main token exposure', async () => {
    const user = userEvent.setup();
    const { client } = await renderWithStore(<AuthorizationScreen />, setup);
    const panel = screen.getByRole('region', { name: 'Tool exposure' });
    expect(panel.textContent).toContain('3 tools, ~900 tokens');
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Exposure of the main token' }), 'search');
    await waitFor(() =>
      expect(client.calls.find((c) => c.method === 'profiles.setExposure')?.params).toEqual({
        id: '*',
        exposure: 'search',
      }),
    );
  });
});
