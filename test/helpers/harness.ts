/**
 * Starts the real core and HTTP endpoint in this process (backends are real
 * child processes or servers), and connects real SDK clients of each era.
 * What needs none of that (paths, a scratch folder, a config) is in basics.ts,
 * re-exported here.
 */
import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CatalogCache, AuditLog, ClientTokens, PinStore } from '../../electron/core/catalog/index.js';
import type { ConfigStore, SecretStore } from '../../electron/core/platform/index.js';
import { silentLogger, type CoreDeps } from '../../electron/core/api/index.js';
import { HttpEndpoint } from '../../electron/core/frontend/index.js';
import { SwitchboardCore, type CoreServices } from '../../electron/core/switchboard/index.js';
import { makeConfig } from './basics.js';

export { EVERYTHING, MEMORY, ROOT, firstText, fixture, makeConfig, nodeServer, tempDir } from './basics.js';

/** A running proxy with helpers to connect clients. */
export interface Harness {
  core: SwitchboardCore;
  endpoint: HttpEndpoint;
  url: string;
  token: string;
  /** A v2 client: `'legacy'` (2025 initialize handshake) or `'modern'` (pinned 2026-07-28). */
  connect(era?: 'legacy' | 'modern', token?: string, options?: ClientOptions): Promise<Client>;
  /** A v1 SDK client (a 2025-era peer, as most clients in the field are). */
  connectV1(): Promise<V1Client>;
  close(): Promise<void>;
}

/** Starts the core with `rawConfig`, waits for every backend to settle, and serves it on a free port. */
export async function startProxy(
  rawConfig: Record<string, unknown>,
  options: {
    wait?: boolean;
    store?: ConfigStore;
    tokens?: ClientTokens;
    pins?: PinStore;
    /** Server approvals (quarantine); without one, nothing is quarantined. */
    approvals?: CoreServices['approvals'];
    /** Replaces the poisoning scan. */
    scanner?: CoreServices['scanner'];
    audit?: AuditLog;
    secrets?: SecretStore;
    catalogCache?: CatalogCache;
    listenStallMs?: number;
    /** Replaces the silent logger, or adds `openUrl`. */
    deps?: Partial<Pick<CoreDeps, 'logger' | 'openUrl' | 'stateDir'>>;
  } = {},
): Promise<Harness> {
  const core = new SwitchboardCore(
    makeConfig(rawConfig),
    {
      environment: process.env,
      logger: silentLogger,
      clientInfo: { name: 'switchboard-test', version: '0.0.0' },
      ...options.deps,
    },
    {
      store: options.store,
      tokens: options.tokens,
      pins: options.pins,
      approvals: options.approvals,
      scanner: options.scanner,
      audit: options.audit,
      secrets: options.secrets,
      catalogCache: options.catalogCache,
    },
  );
  const token = 'test-token-0123456789';
  const endpoint = new HttpEndpoint(core, {
    host: '127.0.0.1',
    port: 0,
    token,
    ...(options.listenStallMs === undefined ? {} : { listenStallMs: options.listenStallMs }),
  });
  const url = await endpoint.listen();
  const starting = core.start();
  if (options.wait !== false) await starting;
  const clients: { close(): Promise<void> }[] = [];
  const headers = (presented: string) => ({ requestInit: { headers: { Authorization: `Bearer ${presented}` } } });
  return {
    core,
    endpoint,
    url,
    token,
    async connect(era = 'legacy', presented = token, options: ClientOptions = {}) {
      const client = new Client(
        { name: `test-${era}`, version: '1.0.0' },
        era === 'modern' ? { ...options, versionNegotiation: { mode: { pin: '2026-07-28' } } } : options,
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(url), headers(presented)));
      clients.push(client);
      return client;
    },
    async connectV1() {
      const client = new V1Client({ name: 'test-v1', version: '1.0.0' });
      await client.connect(new V1HttpTransport(new URL(url), headers(token)));
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.allSettled(clients.map((client) => client.close()));
      await endpoint.close();
      await starting.catch(() => undefined);
      await core.dispose();
    },
  };
}
