// @vitest-environment jsdom
/**
 * The request log screen: a tool filter, a call's detail (with captured
 * arguments and result, and the rule that decided it), the time filter as a query, and export as JSON lines.
 */
import { act, cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { LogEntryView } from '../../../../../shared/model/views.js';
import { toJsonLines } from '../../../../../renderer/src/features/log/exportLog.js';
import { RequestLogScreen } from '../../../../../renderer/src/features/log/RequestLogScreen.js';
import { renderWithStore } from '../../renderWithStore.js';

const ENTRIES: LogEntryView[] = [
  {
    time: '2026-12-01T10:00:02.000Z',
    client: 'cursor',
    backend: 'github',
    kind: 'tools/call',
    item: 'create_issue',
    outcome: 'ok',
    durationMs: 120,
    decision: { rule: 'allow', source: 'clientItem' },
    arguments: { title: 'Bug' },
    result: { content: [{ type: 'text', text: 'created #7' }] },
  },
  {
    time: '2026-12-01T10:00:01.000Z',
    client: 'local',
    backend: 'fs',
    kind: 'tools/call',
    item: 'read_file',
    outcome: 'denied',
    durationMs: 0,
    decision: { rule: 'deny', source: 'backendDefault' },
  },
];

describe('Request log screen', () => {
  afterEach(cleanup);

  it("offers the person filter only once a call names a person (gateway mode's)", async () => {
    await renderWithStore(<RequestLogScreen />, (client) => client.handle('log.query', () => ENTRIES));
    await screen.findByRole('button', { name: /^Details of create_issue/ });
    expect(screen.queryByLabelText('Filter by person')).toBeNull();
    cleanup();
    const withPerson = [{ ...ENTRIES[0]!, principal: { subject: 'u1', email: 'bob@example.com' } }];
    await renderWithStore(<RequestLogScreen />, (client) => client.handle('log.query', () => withPerson));
    await screen.findByLabelText('Filter by person');
  });

  it('filters by tool and shows a call in full', async () => {
    const user = userEvent.setup();
    await renderWithStore(<RequestLogScreen />, (client) => client.handle('log.query', () => ENTRIES));
    const log = screen.getByRole('region', { name: 'Request log' });
    expect(within(log).getAllByRole('row')).toHaveLength(3);
    await user.type(screen.getByRole('searchbox', { name: 'Filter by tool' }), 'issue');
    expect(within(log).getAllByRole('row')).toHaveLength(2);
    await user.click(within(log).getByRole('button', { name: /^Details of create_issue/ }));
    const detail = screen.getByRole('region', { name: 'Call detail' });
    expect(detail.textContent).toContain('120 ms');
    expect(detail.textContent).toContain('"title": "Bug"');
    expect(detail.textContent).toContain('created #7');
    expect(within(detail).getByRole('row', { name: /^Decided by/ }).textContent).toContain(
      "allow, by the client's own rule for this item",
    );
  });

  it('names the rule that refused a denied call', async () => {
    const user = userEvent.setup();
    await renderWithStore(<RequestLogScreen />, (client) => client.handle('log.query', () => ENTRIES));
    const log = screen.getByRole('region', { name: 'Request log' });
    await user.click(within(log).getByRole('button', { name: /^Details of read_file/ }));
    const detail = screen.getByRole('region', { name: 'Call detail' });
    expect(within(detail).getByRole('row', { name: /^Decided by/ }).textContent).toContain(
      "deny, by the server's default rule",
    );
  });

  it('asks the core for calls since the chosen time', async () => {
    const user = userEvent.setup();
    const { client, store } = await renderWithStore(<RequestLogScreen />);
    const before = Date.now();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Filter by time' }), 'Last hour');
    await act(() => store.getState().settled());
    const last = client.calls.filter((c) => c.method === 'log.query').at(-1)?.params as { since?: string };
    const since = Date.parse(last.since ?? '');
    expect(before - since).toBeGreaterThanOrEqual(60 * 60_000 - 1000);
    expect(before - since).toBeLessThan(60 * 60_000 + 5000);
  });

  it('exports JSON lines, oldest first, one entry per line', () => {
    const lines = toJsonLines(ENTRIES).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ item: 'read_file', outcome: 'denied' });
    expect(JSON.parse(lines[1] ?? '')).toEqual(ENTRIES[0]);
  });
});
