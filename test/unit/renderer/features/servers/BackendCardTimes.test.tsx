// @vitest-environment jsdom
/**
 * A server card's times and labels as people read them: the next retry counts
 * down ("in 12 s"), the last error says how long ago, "restarts" appears only
 * for a server that was ever up, and the stderr tail counts its lines.
 */
import { act, cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BackendView } from '../../../../../shared/model/views.js';
import { BackendsScreen } from '../../../../../renderer/src/features/servers/BackendsScreen.js';
import { renderWithStore } from '../../renderWithStore.js';

const down = (health: Partial<BackendView['health']> = {}): BackendView => ({
  health: {
    id: 'flaky',
    transport: 'stdio',
    status: 'down',
    settled: true,
    warnings: [],
    counts: { tools: 0, resources: 0, resourceTemplates: 0, prompts: 0 },
    probeFailures: 0,
    restarts: 2,
    outstandingRequests: 0,
    ...health,
  },
  enabled: true,
  target: 'node flaky.js',
  entry: { command: 'node', args: ['flaky.js'] },
});

const card = () => screen.getByRole('article', { name: 'flaky' });

describe('Server card times and labels', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] }));
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('counts the next retry down instead of showing a clock time', async () => {
    const nextRetryAt = new Date(Date.now() + 12_000).toISOString();
    await renderWithStore(<BackendsScreen />, (c) => c.handle('backends.list', () => [down({ nextRetryAt })]));
    expect(within(card()).getByText('Next retry in 12 s')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(3000);
    });
    expect(within(card()).getByText('Next retry in 9 s')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(within(card()).getByText('Next retry now')).toBeTruthy();
  });

  it('says how long ago the last error was', async () => {
    const at = new Date(Date.now() - 3 * 60_000).toISOString();
    await renderWithStore(<BackendsScreen />, (c) =>
      c.handle('backends.list', () => [down({ lastError: { code: 'connect_failed', message: 'exited', at } })]),
    );
    expect(card().textContent).toContain('Last error (3 min ago): exited');
    act(() => {
      vi.advanceTimersByTime(2 * 60_000);
    });
    expect(card().textContent).toContain('Last error (5 min ago): exited');
  });

  it('shows restarts only for a server that was ever up', async () => {
    const { client } = await renderWithStore(<BackendsScreen />, (c) => c.handle('backends.list', () => [down()]));
    expect(card().textContent).not.toMatch(/restart/);
    client.handle('backends.list', () => [down({ startMs: 400, restarts: 1 })]);
    act(() => client.emit('backendsChanged', {}));
    const stat = (text: string) => (_: string, el: Element | null) => el?.tagName === 'SPAN' && el.textContent === text;
    await vi.waitFor(() => expect(within(card()).getByText(stat('1 restart'))).toBeTruthy());
  });

  it('labels a one-line stderr tail in the singular', async () => {
    await renderWithStore(<BackendsScreen />, (c) => c.handle('backends.list', () => [down({ stderrTail: ['boom'] })]));
    expect(within(card()).getByText('stderr (1 line)')).toBeTruthy();
  });
});
