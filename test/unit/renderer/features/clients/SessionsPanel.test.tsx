// @vitest-environment jsdom
/**
 * The sessions panel reads the list again while shown, so a 2026-07-28
 * client the core dropped for sitting idle (nothing says when a stateless
 * client is done) leaves the screen without any other session event.
 */
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionView } from '../../../../../shared/model/views.js';
import { SESSIONS_REFRESH_MS, SessionsPanel } from '../../../../../renderer/src/features/clients/SessionsPanel.js';
import { renderWithStore } from '../../renderWithStore.js';

const session = (id: string, clientName: string): SessionView => ({
  id,
  profile: 'local',
  era: 'modern',
  transport: 'http',
  clientName,
  connectedAt: '2026-01-01T00:00:00.000Z',
  lastActivityAt: '2026-01-01T00:00:00.000Z',
});

describe('Sessions panel', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('drops an entry the core no longer lists at the next periodic read, with no event', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let list = [session('a', 'finished-client'), session('b', 'busy-client')];
    const { client } = await renderWithStore(<SessionsPanel />, (c) => c.handle('sessions.list', () => list));
    await screen.findByText('finished-client');
    const reads = client.count('sessions.list');
    list = [session('b', 'busy-client')];
    act(() => {
      vi.advanceTimersByTime(SESSIONS_REFRESH_MS);
    });
    await waitFor(() => expect(screen.queryByText('finished-client')).toBeNull());
    expect(client.count('sessions.list')).toBe(reads + 1);
    expect(screen.getByText('busy-client')).toBeTruthy();
  });
});
