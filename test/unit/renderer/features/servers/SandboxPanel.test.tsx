// @vitest-environment jsdom
/**
 * A stdio server's sandbox on its card: said plainly in each state (on, off,
 * unavailable with the reason: never pretending), each refusal listed with a
 * button that saves exactly that grant through backends.update (the rest of
 * the entry kept), the network grant's title saying why it is all of it, and
 * the switch turning the sandbox off with its grants kept.
 */
import { cleanup, screen, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackendSandbox } from '../../../../../shared/model/health.js';
import type { BackendView } from '../../../../../shared/model/views.js';
import { BackendsScreen } from '../../../../../renderer/src/features/servers/BackendsScreen.js';
import { renderWithStore } from '../../renderWithStore.js';

function stdio(sandbox: BackendSandbox, entry: Record<string, unknown>): BackendView {
  return {
    health: {
      id: 'fs',
      transport: 'stdio',
      status: sandbox.state === 'unavailable' ? 'down' : 'up',
      settled: true,
      warnings: [],
      counts: { tools: 1, resources: 0, resourceTemplates: 0, prompts: 0 },
      probeFailures: 0,
      restarts: 0,
      outstandingRequests: 0,
      sandbox,
    },
    enabled: true,
    target: 'npx -y fs-server',
    entry,
  };
}

const ON: BackendSandbox = {
  state: 'on',
  engine: 'bubblewrap',
  read: ['/home/u/docs'],
  write: [],
  network: 'none',
  blocked: [
    { kind: 'read', target: '/home/u/.aws/credentials' },
    { kind: 'write', target: '/home/u/out/report.txt' },
    { kind: 'connect', target: '127.0.0.1:5432' },
  ],
};
const ENTRY = { command: 'npx', args: ['-y', 'fs-server'], env: { MODE: 'x' }, sandbox: { read: ['/home/u/docs'] } };

async function show(view: BackendView) {
  return renderWithStore(<BackendsScreen />, (c) => {
    c.handle('backends.list', () => [view]);
    c.handle('backends.update', ({ entry }) => ({ ...view, entry }));
  });
}

const region = () => screen.getByRole('region', { name: 'Sandbox of fs' });

describe("a stdio server's sandbox on its card", () => {
  afterEach(cleanup);

  it('says what it runs under, in each state', async () => {
    await show(stdio(ON, ENTRY));
    expect(within(region()).getByRole('status').textContent).toBe(
      'Sandboxed (bubblewrap): network none; reads /home/u/docs; writes defaults only',
    );
    cleanup();
    await show(stdio({ ...ON, state: 'off', blocked: [] }, { command: 'npx' }));
    expect(within(region()).getByRole('status').textContent).toContain('Not sandboxed: runs with your rights');
    expect(within(region()).getByRole('checkbox', { name: 'Run sandboxed' })).toHaveProperty('checked', false);
    cleanup();
    await show(
      stdio(
        { ...ON, state: 'unavailable', reason: 'bubblewrap is not installed', blocked: [] },
        { command: 'npx', sandbox: true },
      ),
    );
    expect(within(region()).getByRole('status').textContent).toBe(
      'Sandbox unavailable: bubblewrap is not installed — not started',
    );
  });

  it('lists each refusal, and its button saves exactly that grant', async () => {
    const user = userEvent.setup();
    const { client } = await show(stdio(ON, ENTRY));
    const refused = within(screen.getByRole('list', { name: 'Refused to fs' }));
    expect(refused.getAllByRole('listitem').map((item) => item.querySelector('code')?.textContent)).toEqual([
      'blocked: read of /home/u/.aws/credentials',
      'blocked: write of /home/u/out/report.txt',
      'blocked: connection to 127.0.0.1:5432',
    ]);
    await user.click(refused.getByRole('button', { name: 'Allow reading /home/u/.aws/credentials' }));
    await user.click(refused.getByRole('button', { name: 'Allow writing in /home/u/out' }));
    const network = refused.getByRole('button', { name: 'Allow connections to 127.0.0.1:5432' });
    expect(network.getAttribute('title')).toMatch(/through Switchboard’s proxy/);
    await user.click(network);
    const updates = client.calls.filter((c) => c.method === 'backends.update').map((c) => c.params);
    expect(updates).toEqual([
      { id: 'fs', entry: { ...ENTRY, sandbox: { read: ['/home/u/docs', '/home/u/.aws/credentials'] } } },
      { id: 'fs', entry: { ...ENTRY, sandbox: { read: ['/home/u/docs'], write: ['/home/u/out'] } } },
      { id: 'fs', entry: { ...ENTRY, sandbox: { read: ['/home/u/docs'], network: ['127.0.0.1:5432'] } } },
    ]);
  });

  it('turns the sandbox off with its grants kept, and on for a server without a setting of its own', async () => {
    const user = userEvent.setup();
    const { client } = await show(stdio(ON, ENTRY));
    await user.click(within(region()).getByRole('checkbox', { name: 'Run sandboxed' }));
    expect(client.calls.find((c) => c.method === 'backends.update')?.params).toEqual({
      id: 'fs',
      entry: { ...ENTRY, sandbox: { enabled: false, read: ['/home/u/docs'] } },
    });
    cleanup();
    const off = await show(stdio({ ...ON, state: 'off', blocked: [] }, { command: 'npx' }));
    expect(within(region()).getByRole('status').textContent).toContain('the default in Settings');
    await user.click(within(region()).getByRole('checkbox', { name: 'Run sandboxed' }));
    expect(off.client.calls.find((c) => c.method === 'backends.update')?.params).toEqual({
      id: 'fs',
      entry: { command: 'npx', sandbox: true },
    });
  });

  it('shows nothing of a sandbox for a remote server', async () => {
    const view = stdio(ON, ENTRY);
    await show({ ...view, health: { ...view.health, transport: 'http', sandbox: undefined } as BackendView['health'] });
    expect(screen.queryByRole('region', { name: 'Sandbox of fs' })).toBeNull();
  });
});
