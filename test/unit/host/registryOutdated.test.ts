/**
 * `registry.outdated` is bounded: a registry that accepts the connection but
 * never answers makes the check give up at its timeout with nothing to say,
 * so the Servers screen is never held up or shown an error.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registryUpdates } from '../../../electron/host/registryOutdated.js';

let hanging: Server;
let url: string;
beforeAll(async () => {
  hanging = createServer(() => undefined); // never answers
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
});
afterAll(async () => {
  hanging.closeAllConnections();
  await new Promise<void>((resolve) => hanging.close(() => resolve()));
});

describe('registry.outdated', () => {
  it('gives up at its timeout with no updates when the registry hangs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-outdated-'));
    const configPath = join(dir, 'config.json');
    const source = { registry: url, name: 'io.github.example/slow', version: '1.0.0', inputs: {} };
    writeFileSync(configPath, JSON.stringify({ mcpServers: { slow: { command: 'node', source } } }));
    const started = Date.now();
    const updates = await registryUpdates({
      configPath,
      stateDir: join(dir, 'state'),
      environment: { SWITCHBOARD_REGISTRY_URL: url },
      timeoutMs: 300,
    });
    expect(updates).toEqual([]);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('says nothing without a config file', async () => {
    expect(await registryUpdates({ configPath: undefined, stateDir: tmpdir(), environment: {} })).toEqual([]);
  });
});
