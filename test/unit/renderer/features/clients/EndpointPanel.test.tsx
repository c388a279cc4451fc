// @vitest-environment jsdom
/**
 * The Endpoint panel shows how many live 2025-era HTTP sessions the endpoint
 * holds (the `/readyz` and `proxy/health` figure), and follows changes.
 */
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionView } from '../../../../../shared/model/views.js';
import { EndpointPanel } from '../../../../../renderer/src/features/clients/EndpointPanel.js';
import { renderWithStore } from '../../renderWithStore.js';

const session = (id: string, era: SessionView['era'], transport: SessionView['transport']): SessionView => ({
  id,
  profile: 'local',
  era,
  transport,
  connectedAt: '2026-01-01T00:00:00.000Z',
  lastActivityAt: '2026-01-01T00:00:00.000Z',
});

describe('Endpoint panel', () => {
  afterEach(cleanup);

  it('counts live 2025-era HTTP sessions only, and follows a session ending', async () => {
    let list = [
      session('a', 'legacy', 'http'),
      session('b', 'legacy', 'http'),
      session('c', 'modern', 'http'),
      session('d', 'legacy', 'stdio'),
    ];
    const { client } = await renderWithStore(<EndpointPanel />, (c) => c.handle('sessions.list', () => list));
    expect(screen.getByLabelText('Live HTTP sessions').textContent).toBe('Sessions: 2');

    list = list.filter((s) => s.id !== 'a');
    act(() => client.emit('sessionsChanged', {}));
    await waitFor(() => expect(screen.getByLabelText('Live HTTP sessions').textContent).toBe('Sessions: 1'));
  });
});
