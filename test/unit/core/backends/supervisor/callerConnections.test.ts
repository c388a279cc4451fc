/**
 * The connections of callers served apart (per-caller credentials,
 * per-principal processes), against real in-process SDK servers: one per
 * caller key, a start slower than the idle timeout is not closed by it, and
 * an unused one closes after it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { BackendConnection } from '../../../../../electron/core/backends/connection/backendConnection.js';
import { CallerConnections } from '../../../../../electron/core/backends/supervisor/callerConnections.js';
import { LineTail } from '../../../../../electron/core/backends/transport/transports.js';
import { makeConfig } from '../../../../helpers/basics.js';
import { waitUntil } from '../../../../helpers/processes.js';

const config = makeConfig({ mcpServers: { notes: { command: 'in-process', protocol: 'legacy' } } });
const IDLE_MS = 100;
const served: { close(): Promise<void> }[] = [];

/** A real connection to an in-process server, whose transport is ready after `startMs`. */
function connectionAfter(startMs: number, onClosed: () => void): BackendConnection {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  served.push(serveStdio(() => new McpServer({ name: 'notes', version: '1.0.0' }), { transport: serverSide }));
  return new BackendConnection({
    config: config.backends[0]!,
    proxy: config.proxy,
    environment: {},
    clientInfo: { name: 'switchboard-unit', version: '0.0.0' },
    stderrTail: new LineTail(),
    onUnexpectedClose: onClosed,
    transport: async () => {
      await new Promise((resolve) => setTimeout(resolve, startMs));
      return { transport: clientSide, pid: () => undefined };
    },
  });
}

function connections(startMs: number): { pool: CallerConnections; opened: string[] } {
  const opened: string[] = [];
  const pool = new CallerConnections({
    id: 'notes',
    open: (caller, onClosed) => {
      opened.push(caller);
      return connectionAfter(startMs, onClosed);
    },
    max: () => 8,
    idleMs: () => IDLE_MS,
  });
  return { pool, opened };
}

afterEach(async () => {
  await Promise.allSettled(served.splice(0).map((server) => server.close()));
});

describe('CallerConnections', () => {
  it('gives each caller their own connection, and the same one again', async () => {
    const { pool, opened } = connections(0);
    const [alice, bob, again] = await Promise.all([
      pool.acquire('principal:alice'),
      pool.acquire('principal:bob'),
      pool.acquire('principal:alice'),
    ]);
    expect(alice).not.toBe(bob);
    expect(again).toBe(alice);
    expect(opened).toEqual(['principal:alice', 'principal:bob']);
    await pool.closeAll();
    expect(pool.size).toBe(0);
  });

  it('does not close a connection still starting when its idle timeout passes, and closes it once unused', async () => {
    const { pool } = connections(IDLE_MS * 3);
    const connection = await pool.acquire('principal:alice');
    expect(pool.size).toBe(1);
    await waitUntil(() => pool.size === 0, { timeoutMs: IDLE_MS * 20 });
    await expect(connection.probe({ signal: AbortSignal.timeout(1000), timeout: 1000 })).rejects.toThrow();
  });
});
