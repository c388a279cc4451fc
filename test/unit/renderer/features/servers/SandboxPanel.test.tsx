// @vitest-environment jsdom
/**
 * A stdio server's sandbox on its card: said plainly in each state (on, off,
 * unavailable with the reason: never pretending), each refusal in the one
 * sentence ("blocked by the sandbox: ...") with an Allow button that saves
 * exactly that grant (`sandbox.grant`), the grants listed with Revoke, and the
 * switch turning the sandbox off, or on once it said what the server's launch
 * points at outside it.
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

  it('lists each refusal in one sentence, and its Allow saves exactly that grant on the server', async () => {
    const user = userEvent.setup();
    const { client } = await show(stdio({ ...ON, home: '/home/u' }, ENTRY));
    const refused = within(screen.getByRole('list', { name: 'Refused to fs' }));
    expect(refused.getAllByRole('listitem').map((item) => item.querySelector('code')?.textContent)).toEqual([
      'blocked by the sandbox: read of ~/.aws/credentials',
      'blocked by the sandbox: write to ~/out/report.txt',
      'blocked by the sandbox: connection to 127.0.0.1:5432',
    ]);
    await user.click(refused.getByRole('button', { name: 'Allow reading /home/u/.aws/credentials' }));
    await user.click(refused.getByRole('button', { name: 'Allow writing to /home/u/out/report.txt' }));
    const network = refused.getByRole('button', { name: 'Allow connections to 127.0.0.1:5432' });
    expect(network.textContent).toBe('Allow');
    expect(network.getAttribute('title')).toMatch(/through Switchboard’s proxy/);
    await user.click(network);
    expect(client.calls.filter((c) => c.method === 'sandbox.grant').map((c) => c.params)).toEqual([
      { id: 'fs', grant: { kind: 'read', target: '/home/u/.aws/credentials' } },
      { id: 'fs', grant: { kind: 'write', target: '/home/u/out/report.txt' } },
      { id: 'fs', grant: { kind: 'host', target: '127.0.0.1:5432' } },
    ]);
  });

  it('lists the grants it holds, each with Revoke, and offers no Allow for what is granted', async () => {
    const user = userEvent.setup();
    const entry = { ...ENTRY, sandbox: { read: ['/home/u/docs', '/home/u/.aws/credentials'], network: ['a.example'] } };
    const { client } = await show(stdio(ON, entry));
    const grants = within(screen.getByRole('list', { name: 'Grants of fs' }));
    expect(grants.getAllByRole('listitem').map((item) => item.querySelector('code')?.textContent)).toEqual([
      'read /home/u/docs',
      'read /home/u/.aws/credentials',
      'host a.example',
    ]);
    expect(screen.queryByRole('button', { name: 'Allow reading /home/u/.aws/credentials' })).toBeNull();
    await user.click(grants.getByRole('button', { name: 'Revoke host a.example' }));
    expect(client.calls.find((c) => c.method === 'sandbox.revoke')?.params).toEqual({
      id: 'fs',
      grant: { kind: 'host', target: 'a.example' },
    });
  });

  it('turns the sandbox off, and on after saying what its launch points at outside it', async () => {
    const user = userEvent.setup();
    const { client } = await show(stdio(ON, ENTRY));
    await user.click(within(region()).getByRole('checkbox', { name: 'Run sandboxed' }));
    expect(client.calls.find((c) => c.method === 'sandbox.setEnabled')?.params).toEqual({ id: 'fs', enabled: false });
    cleanup();
    const warning = {
      source: 'env' as const,
      name: 'MEMORY_FILE_PATH',
      path: '/home/u/notes.json',
      grant: { kind: 'write' as const, target: '/home/u/notes.json' },
    };
    const off = await renderWithStore(<BackendsScreen />, (c) => {
      c.handle('backends.list', () => [stdio({ ...ON, state: 'off', blocked: [] }, { command: 'npx' })]);
      c.handle('sandbox.server', () => ({ id: 'fs', grants: [], warnings: [warning] }));
      c.handle('sandbox.grant', () => ({ id: 'fs', grants: [warning.grant], warnings: [] }));
      c.handle('sandbox.setEnabled', () => ({ id: 'fs', grants: [], warnings: [] }));
    });
    expect(within(region()).getByRole('status').textContent).toContain('the default in Settings');
    await user.click(within(region()).getByRole('checkbox', { name: 'Run sandboxed' }));
    const alert = within(screen.getByRole('alert', { name: 'Outside the sandbox of fs' }));
    alert.getByText('MEMORY_FILE_PATH = /home/u/notes.json');
    expect(off.client.calls.some((c) => c.method === 'sandbox.setEnabled')).toBe(false);
    // Allowed: nothing left outside, so it is turned on as asked.
    await user.click(alert.getByRole('button', { name: 'Allow write /home/u/notes.json' }));
    expect(off.client.calls.find((c) => c.method === 'sandbox.grant')?.params).toEqual({
      id: 'fs',
      grant: warning.grant,
    });
    expect(off.client.calls.find((c) => c.method === 'sandbox.setEnabled')?.params).toEqual({
      id: 'fs',
      enabled: true,
    });
  });

  it('shows nothing of a sandbox for a remote server', async () => {
    const view = stdio(ON, ENTRY);
    await show({ ...view, health: { ...view.health, transport: 'http', sandbox: undefined } as BackendView['health'] });
    expect(screen.queryByRole('region', { name: 'Sandbox of fs' })).toBeNull();
  });
});
