/**
 * The servers the conformance suite runs against: our conformance fixture alone over HTTP
 * (direct), and a real built `serve` whose only backend is that fixture over stdio with tool
 * names unprefixed, reached through the bearer forwarder: once with the backend's era probed
 * (proxied: spoken to in 2026-07-28) and once pinned `protocol: "legacy"` (bridged: spoken to in
 * 2025-11-25, so a 2026 client's multi-round calls go through the era bridge).
 */
import { join } from 'node:path';
import { fixture } from '../helpers/harness.js';
import { startServeHttp } from '../helpers/serveHttp.js';
import { spawnServer } from '../helpers/spawnServer.js';
import { startBearerForwarder } from './bearerForwarder.js';
import type { ProxiedTargetName } from './table.js';

export type TargetName = 'direct' | ProxiedTargetName;

/** A server under test. */
export interface Target {
  name: TargetName;
  url: string;
  stop(): Promise<void>;
}

export const CONFORMANCE_SERVER = fixture(join('conformance', 'server.mjs'));

/** Our fixture over Streamable HTTP. */
export async function startDirect(): Promise<Target> {
  const server = await spawnServer([CONFORMANCE_SERVER, '--http', '0'], /LISTENING (\S+)/);
  return { name: 'direct', url: server.match[1]!, stop: () => server.stop() };
}

/** What the one backend's config says about its era, per proxied target. */
const BACKEND_PROTOCOL: Record<ProxiedTargetName, Record<string, string>> = {
  proxied: {},
  bridged: { protocol: 'legacy' },
};

/**
 * `serve` (the dist build) with the fixture as its one stdio backend, prefix '' so names are kept;
 * `bridged` pins the backend to the 2025 handshake.
 */
export async function startProxied(name: ProxiedTargetName): Promise<Target> {
  const backend = { command: process.execPath, args: [CONFORMANCE_SERVER], prefix: '', ...BACKEND_PROTOCOL[name] };
  const serve = await startServeHttp({ mcpServers: { conformance: backend } });
  const forwarder = await startBearerForwarder(serve.url, serve.token).catch(async (error: unknown) => {
    await serve.stop();
    throw error;
  });
  return {
    name,
    url: forwarder.url,
    async stop() {
      await forwarder.stop();
      await serve.stop();
    },
  };
}
