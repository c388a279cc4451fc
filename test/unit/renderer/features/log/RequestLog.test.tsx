// @vitest-environment jsdom
/**
 * The request log: fetched only while shown, and the typed client filter
 * queries once (on Enter, on leaving the box, or after a pause), not per keystroke.
 */
import { act, cleanup, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_FILTER_DELAY_MS, RequestLog } from '../../../../../renderer/src/features/log/RequestLog.js';
import { renderWithStore } from '../../renderWithStore.js';

const queries = (client: { calls: { method: string; params: unknown }[] }) =>
  client.calls.filter((c) => c.method === 'log.query').map((c) => c.params);

describe('Request log', () => {
  afterEach(cleanup);

  it('fetches while shown, and not after it is gone', async () => {
    const { client, store, unmount } = await renderWithStore(<RequestLog />);
    expect(client.count('log.query')).toBe(1);
    unmount();
    act(() => client.emit('logAppended', {}));
    await store.getState().settled();
    expect(client.count('log.query')).toBe(1);
  });

  it('applies the client filter on Enter, once, not per keystroke', async () => {
    const user = userEvent.setup();
    const { client, store } = await renderWithStore(<RequestLog />);
    const before = client.count('log.query');
    await user.type(screen.getByRole('combobox', { name: 'Filter by client' }), 'cursor');
    await store.getState().settled();
    expect(client.count('log.query')).toBe(before);
    await user.keyboard('{Enter}');
    await act(() => store.getState().settled());
    expect(queries(client).slice(before)).toEqual([{ client: 'cursor', limit: 200 }]);
  });

  it('applies it when leaving the box, or after a pause in typing', async () => {
    const user = userEvent.setup();
    const { client, store } = await renderWithStore(<RequestLog />);
    const before = client.count('log.query');
    await user.type(screen.getByRole('combobox', { name: 'Filter by client' }), 'laptop');
    await user.tab();
    await act(() => store.getState().settled());
    expect(queries(client).slice(before)).toEqual([{ client: 'laptop', limit: 200 }]);

    await user.clear(screen.getByRole('combobox', { name: 'Filter by client' }));
    await user.type(screen.getByRole('combobox', { name: 'Filter by client' }), 'x');
    await act(() => new Promise((resolve) => setTimeout(resolve, CLIENT_FILTER_DELAY_MS + 50)));
    await act(() => store.getState().settled());
    expect(queries(client).slice(before + 1)).toEqual([{ client: 'x', limit: 200 }]);
  });
});
