// SDK clients for the benchmarks, made as real clients make them: both protocol eras, and the
// capabilities Claude Code and Cursor declare on initialize (roots, sampling, elicitation), with
// a roots/list handler, so the proxied path carries what it carries for them.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ClientOptions } from '@modelcontextprotocol/client';

/** Client era: 2025 = legacy initialize handshake, 2026 = pinned 2026-07-28 (stateless). */
export type Era = '2025' | '2026';

/** The capabilities Claude Code and Cursor declare. */
export const REAL_CLIENT_CAPABILITIES = {
  roots: { listChanged: true },
  sampling: {},
  elicitation: { form: {}, url: {} },
};

/** A client of `era` declaring {@link REAL_CLIENT_CAPABILITIES}; not connected yet. */
export function realClient(era: Era, name = `bench-${era}`): Client {
  const options: ClientOptions = {
    capabilities: REAL_CLIENT_CAPABILITIES,
    ...(era === '2026' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
  };
  const client = new Client({ name, version: '1.0.0' }, options);
  client.setRequestHandler('roots/list', () => ({ roots: [{ uri: 'file:///tmp/bench', name: 'bench' }] }));
  return client;
}

/** Connects `client` over Streamable HTTP to `url`, with a bearer token when given. */
export async function connectHttp(client: Client, url: string, token?: string): Promise<Client> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** Concurrency levels of the throughput runs. */
export const CONCURRENCY = [1, 8, 32] as const;
