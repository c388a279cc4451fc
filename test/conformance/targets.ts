/**
 * The two servers the conformance suite runs against: our conformance fixture alone over HTTP
 * (direct), and a real built `serve` whose only backend is that fixture over stdio with tool
 * names unprefixed (proxied), reached through the bearer forwarder.
 */
import { join } from 'node:path';
import { fixture } from '../helpers/harness.js';
import { startServeHttp } from '../helpers/serveHttp.js';
import { spawnServer } from '../helpers/spawnServer.js';
import { startBearerForwarder } from './bearerForwarder.js';

export type TargetName = 'direct' | 'proxied';

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

/** `serve` (the dist build) with the fixture as its one stdio backend, prefix '' so names are kept. */
export async function startProxied(): Promise<Target> {
  const serve = await startServeHttp({
    mcpServers: { conformance: { command: process.execPath, args: [CONFORMANCE_SERVER], prefix: '' } },
  });
  const forwarder = await startBearerForwarder(serve.url, serve.token).catch(async (error: unknown) => {
    await serve.stop();
    throw error;
  });
  return {
    name: 'proxied',
    url: forwarder.url,
    async stop() {
      await forwarder.stop();
      await serve.stop();
    },
  };
}
