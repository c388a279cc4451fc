/**
 * One backend's life under its supervisor, against a real SDK McpServer in
 * this process: the transport factory hands the supervisor one end of the
 * SDK's linked in-memory transports instead of spawning a command (the only
 * stand-in; the connection, handshake, listing, notifications and
 * supervision are the real code). Covers connect-list-publish, re-listing on
 * list_changed, refusal by the catalog, reconnect with backoff after the
 * backend drops, and the disabled and refused states.
 */
import { McpServer, InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, SwitchboardError } from '../../../../../shared/errors.js';
import type { BackendCatalog } from '../../../../../electron/core/backends/connection/backendConnection.js';
import { BackendSupervisor } from '../../../../../electron/core/backends/supervisor/backendSupervisor.js';
import type { SupervisorHost } from '../../../../../electron/core/backends/supervisor/supervisorHost.js';
import {
  parseBackend,
  ProxyOptionsSchema,
  type BackendConfig,
} from '../../../../../electron/core/platform/config/schema.js';
import { silentLogger } from '../../../../../electron/core/platform/deps.js';
import type * as Transports from '../../../../../electron/core/backends/transport/transports.js';

/** The in-process servers, by backend ID, and the server ends of their current transports. */
const servers = new Map<string, () => McpServer>();
const serverEnds = new Map<string, InMemoryTransport>();

vi.mock('../../../../../electron/core/backends/transport/transports.js', async (importOriginal) => {
  const original = await importOriginal<typeof Transports>();
  return {
    ...original,
    createBackendTransport: async (config: BackendConfig) => {
      const make = servers.get(config.id);
      if (!make) throw new Error(`no in-process server "${config.id}"`);
      const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
      await make().connect(serverEnd);
      serverEnds.set(config.id, serverEnd);
      return { transport: clientEnd, pid: () => undefined };
    },
  };
});

function toolServer(tools: string[]): McpServer {
  const server = new McpServer({ name: 'in-process', version: '1.0.0' });
  for (const name of tools) server.registerTool(name, { description: name }, () => ({ content: [] }));
  return server;
}

function backend(id: string, extra: Record<string, unknown> = {}): BackendConfig {
  const { backend: config, problems } = parseBackend(id, { command: 'in-process', ...extra });
  if (!config) throw new Error(problems.map((p) => p.message).join('; '));
  return config;
}

/** A host that records what the supervisor reports; `admit` may be made to refuse. */
function recordingHost(admit?: (snapshot: BackendCatalog) => void) {
  const admitted: BackendCatalog[] = [];
  const events: string[] = [];
  const host: SupervisorHost = {
    deps: { environment: {}, logger: silentLogger, clientInfo: { name: 'test', version: '0' } },
    proxyOptions: () => ProxyOptionsSchema.parse({ reconnectInitialMs: 10, reconnectMaxMs: 20 }),
    admit: async (_id, snapshot) => {
      admit?.(snapshot);
      admitted.push(snapshot);
    },
    unpublish: () => events.push('unpublish'),
    changed: () => undefined,
    log: () => undefined,
    resourceUpdated: () => undefined,
    online: () => events.push('online'),
  };
  return { host, admitted, events };
}

const supervisors: BackendSupervisor[] = [];
function supervise(config: BackendConfig, host: SupervisorHost): BackendSupervisor {
  const supervisor = new BackendSupervisor(config, host);
  supervisors.push(supervisor);
  return supervisor;
}

afterEach(async () => {
  const stopped = new SwitchboardError(ErrorCode.BackendRemoved, 'test over');
  await Promise.all(supervisors.splice(0).map((supervisor) => supervisor.stop(stopped)));
  servers.clear();
  serverEnds.clear();
});

describe('BackendSupervisor', () => {
  it('connects, lists every tool and publishes them, then reports up', async () => {
    servers.set('mem', () => toolServer(['search', 'fetch']));
    const { host, admitted, events } = recordingHost();
    const supervisor = supervise(backend('mem'), host);
    expect(supervisor.currentStatus).toBe('connecting');
    expect(supervisor.isSettled).toBe(false);
    expect(await supervisor.start()).toBeUndefined();
    expect(supervisor.currentStatus).toBe('up');
    expect(admitted.at(-1)?.tools.map((tool) => tool.name)).toEqual(['search', 'fetch']);
    expect(supervisor.lastSnapshot).toBe(admitted.at(-1));
    expect(events).toContain('online');
    const health = supervisor.health();
    expect(health).toMatchObject({ id: 'mem', transport: 'stdio', status: 'up', settled: true, restarts: 0 });
    expect(health.serverInfo?.name).toBe('in-process');
  });

  it('re-lists when the backend says its tools changed', async () => {
    let server: McpServer | undefined;
    servers.set('mem', () => (server = toolServer(['one'])));
    const { host, admitted } = recordingHost();
    const supervisor = supervise(backend('mem'), host);
    await supervisor.start();
    server!.registerTool('two', { description: 'two' }, () => ({ content: [] }));
    await vi.waitFor(() => expect(admitted.at(-1)?.tools.map((tool) => tool.name)).toEqual(['one', 'two']));
    expect(supervisor.currentStatus).toBe('up');
  });

  it('is down with the catalog refusal as its error, not retried until the config changes', async () => {
    servers.set('mem', () => toolServer(['clash']));
    const refusal = new SwitchboardError(ErrorCode.NameCollision, 'tool "clash" would collide');
    const { host, events } = recordingHost(() => {
      throw refusal;
    });
    const supervisor = supervise(backend('mem'), host);
    expect(await supervisor.start()).toBe(refusal);
    expect(supervisor.currentStatus).toBe('down');
    expect(supervisor.health().lastError).toMatchObject({ code: ErrorCode.NameCollision });
    expect(events).toContain('unpublish');
    expect(supervisor.health().nextRetryAt).toBeUndefined();
  });

  it('retries a backend that could not be reached, and is up once it answers', async () => {
    let attempts = 0;
    servers.set('mem', () => {
      if (++attempts === 1) throw new Error('not yet');
      return toolServer(['late']);
    });
    const { host, admitted } = recordingHost();
    const supervisor = supervise(backend('mem'), host);
    expect(await supervisor.start()).toBeInstanceOf(Error);
    expect(supervisor.currentStatus).toBe('down');
    expect(supervisor.health().nextRetryAt).toBeDefined();
    await vi.waitFor(() => expect(supervisor.currentStatus).toBe('up'));
    expect(admitted.at(-1)?.tools.map((tool) => tool.name)).toEqual(['late']);
  });

  it('takes the items out when the backend drops, and reconnects with backoff', async () => {
    servers.set('mem', () => toolServer(['search']));
    const { host, events } = recordingHost();
    const supervisor = supervise(backend('mem'), host);
    await supervisor.start();
    await serverEnds.get('mem')!.close();
    await vi.waitFor(() => expect(events).toContain('unpublish'));
    await vi.waitFor(() => expect(supervisor.currentStatus).toBe('up'));
    expect(supervisor.health().restarts).toBe(1);
    expect(events.filter((event) => event === 'online')).toHaveLength(2);
  });

  it('never starts a disabled backend, nor one refused before it connects', async () => {
    servers.set('off', () => toolServer(['x']));
    servers.set('over', () => toolServer(['x']));
    const { host, admitted } = recordingHost();
    const disabled = supervise(backend('off', { enabled: false }), host);
    expect(disabled.currentStatus).toBe('disabled');
    expect(disabled.isSettled).toBe(true);
    await disabled.start();
    const refused = supervise(backend('over'), host);
    refused.refuse(new SwitchboardError(ErrorCode.ConfigInvalid, 'more than maxBackends'));
    await refused.start();
    expect(refused.currentStatus).toBe('down');
    expect(refused.health().lastError?.message).toContain('maxBackends');
    expect(admitted).toEqual([]);
  });

  it('fails a refresh of a backend that is not up, naming its status', async () => {
    const { host } = recordingHost();
    const supervisor = supervise(backend('idle'), host);
    await expect(supervisor.refresh()).rejects.toMatchObject({
      code: ErrorCode.BackendUnavailable,
      message: expect.stringContaining('connecting'),
    });
  });
});
