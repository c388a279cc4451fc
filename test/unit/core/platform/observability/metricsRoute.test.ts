import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Metrics } from '../../../../../electron/core/platform/observability/metrics.js';
import { metricsRoute, type MetricsAccess } from '../../../../../electron/core/platform/observability/metricsRoute.js';

const MAIN = 'the-main-token-0123456789';
let server: Server | undefined;

/** /metrics over a real HTTP server with `access`; the main token is MAIN. */
async function served(access: MetricsAccess): Promise<(token?: string) => Promise<number>> {
  const route = metricsRoute(new Metrics(), access);
  server = createServer((req, res) => void route.serve(req, res, (token) => token === MAIN));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  return async (token) => {
    const response = await fetch(url, token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    return response.status;
  };
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe('the /metrics route', () => {
  it('takes the metrics token or the main token, and nothing else', async () => {
    const status = await served({ token: 'scraper-token-42', unauthenticated: false });
    expect(await status()).toBe(401);
    expect(await status('scraper-token-4')).toBe(401);
    expect(await status('scraper-token-42')).toBe(200);
    expect(await status(MAIN)).toBe(200);
  });

  it('needs the main token when no metrics token is configured', async () => {
    const status = await served({ token: undefined, unauthenticated: false });
    expect(await status()).toBe(401);
    expect(await status('')).toBe(401);
    expect(await status(MAIN)).toBe(200);
  });

  it('serves anyone only when the config says unauthenticated', async () => {
    const status = await served({ token: undefined, unauthenticated: true });
    expect(await status()).toBe(200);
  });
});
