// @vitest-environment jsdom
/**
 * The Endpoint panel shows how many live 2025-era HTTP sessions the endpoint
 * holds (the `/readyz` and `proxy/health` figure), and follows changes; and
 * when the keychain is unavailable, what to do about it (no paths).
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

  it('says what to do when the keychain is unavailable, without the path in its reason', async () => {
    const reason =
      "keytar could not be loaded (Cannot find module '/opt/sb/node_modules/keytar/build/Release/keytar.node'); " +
      'to build it, run `npm_config_nodedir=/usr npm rebuild keytar`';
    await renderWithStore(<EndpointPanel />, (c) =>
      c.handle('app.info', () => ({
        version: '0.0.0-test',
        endpointUrl: 'http://127.0.0.1:1/mcp',
        host: 'headless',
        keychain: { available: false, reason },
      })),
    );
    const note = await screen.findByRole('note', { name: 'Keychain unavailable' });
    expect(note.textContent).toContain('To fix: to build it, run `npm_config_nodedir=/usr npm rebuild keytar`');
    expect(note.textContent).not.toContain('/opt/sb');
  });

  it('shows no keychain warning when the keychain is available', async () => {
    await renderWithStore(<EndpointPanel />);
    await screen.findByLabelText('Endpoint URL');
    expect(screen.queryByRole('note', { name: 'Keychain unavailable' })).toBeNull();
  });
});
