// @vitest-environment jsdom
/**
 * The sidebar footer says what its figures count: servers by status (only
 * the statuses present) and the endpoint's host and port, and follows a
 * server going down.
 */
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackendStatus } from '../../../../shared/model/health.js';
import type { BackendView } from '../../../../shared/model/views.js';
import { Navigation } from '../../../../renderer/src/app/Navigation.js';
import { renderWithStore } from '../renderWithStore.js';

const backend = (id: string, status: BackendStatus): BackendView => ({
  health: {
    id,
    transport: 'stdio',
    status,
    settled: true,
    warnings: [],
    counts: { tools: 1, resources: 0, resourceTemplates: 0, prompts: 0 },
    probeFailures: 0,
    restarts: 0,
    outstandingRequests: 0,
  },
  enabled: status !== 'disabled',
  target: 'node server.js',
  entry: { command: 'node', args: ['server.js'] },
});

describe('Sidebar footer', () => {
  afterEach(cleanup);

  it('counts servers by status and names the endpoint, and follows a change', async () => {
    let statuses: BackendStatus[] = ['up', 'up', 'up', 'disabled'];
    const { client } = await renderWithStore(<Navigation />, (c) =>
      c.handle('backends.list', () => statuses.map((status, index) => backend(`s${index}`, status))),
    );
    const footer = screen.getByRole('note', { name: 'Servers and endpoint' });
    await waitFor(() => expect(footer.textContent).toBe('3 servers up, 1 off · endpoint 127.0.0.1:1'));

    statuses = ['up', 'down', 'up', 'disabled'];
    act(() => client.emit('backendsChanged', { backendId: 's1' }));
    await waitFor(() => expect(footer.textContent).toBe('2 servers up, 1 down, 1 off · endpoint 127.0.0.1:1'));
  });

  it('says when there are no servers yet', async () => {
    await renderWithStore(<Navigation />, (c) => c.handle('backends.list', () => []));
    await waitFor(() =>
      expect(screen.getByRole('note', { name: 'Servers and endpoint' }).textContent).toBe(
        'No servers yet · endpoint 127.0.0.1:1',
      ),
    );
  });
});
