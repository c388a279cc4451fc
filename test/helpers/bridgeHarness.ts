/**
 * The headless bridge end to end, for the bridge-*.test.ts files: the real
 * core, endpoint and UI pipes built by `startHeadless` (what `serve` runs),
 * real backends (server-memory, our HTTP fixture), and the bridge and MCP
 * clients a test file opens, all closed at the end. Paths are isolated: HOME
 * and the XDG directories point at a temporary folder (one per test file;
 * each file runs in its own process).
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CoreEventMap, EventName } from '../../shared/contract.js';
import { startHeadless, type Headless } from '../../electron/host/startHeadless.js';
import { connectBridge, type BridgeClient } from './bridgeClient.js';
import { BIN } from './cli.js';
import { MEMORY, fixture, nodeServer } from './harness.js';
import { spawnServer, type SpawnedServer } from './spawnServer.js';

/** An env value of the memory backend that must never reach a bridge client. */
export const ENV_SECRET = 'env-secret-value-7c1d9a42';
/** A header value of the remote backend that must never reach a bridge client. */
export const HEADER_SECRET = 'header-secret-value-3b5e2f91';
/** A keychain value that must never reach a bridge client. */
export const KEYCHAIN_SECRET = `keychain-secret-value-${process.pid}-5a6b`;
/** The test UI's index page. */
export const UI_INDEX = '<!doctype html><title>test UI</title><script type="module" src="/assets/app.js"></script>';

/** Resolves with the payload of the next `event` (rejects after 10 s). */
export function nextEvent<E extends EventName>(
  client: BridgeClient,
  event: E,
  match: (p: CoreEventMap[E]) => boolean = () => true,
) {
  return new Promise<CoreEventMap[E]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} event`)), 10_000);
    const stop = client.on(event, (payload) => {
      if (!match(payload)) return;
      clearTimeout(timer);
      stop();
      resolve(payload);
    });
  });
}

/**
 * One test file's bridge: `create()` at the top level (it isolates the paths
 * before anything reads them), `start()` in beforeAll, `stop()` in afterAll.
 */
export class BridgeHarness {
  /** Every client opened with `bridge()`; their frames are checked for secrets. */
  readonly clients: BridgeClient[] = [];
  /** MCP clients to close at the end. */
  readonly mcpClients: Client[] = [];
  readonly configPath: string;
  readonly uiDir: string;
  private remote: SpawnedServer | undefined;
  private running: Headless | undefined;

  private constructor(readonly root: string) {
    this.configPath = join(root, 'config', 'mcp-switchboard', 'config.json');
    this.uiDir = join(root, 'ui');
  }

  /** Makes the temporary folder and points every default path (config, tokens, audit log, client configs) at it. */
  static async create(): Promise<BridgeHarness> {
    const root = await mkdtemp(join(tmpdir(), 'sb-bridge-'));
    process.env['HOME'] = root;
    process.env['XDG_CONFIG_HOME'] = join(root, 'config');
    process.env['XDG_STATE_HOME'] = join(root, 'state');
    delete process.env['SWITCHBOARD_TOKEN'];
    return new BridgeHarness(root);
  }

  /** The running headless bridge (after `start()`). */
  get headless(): Headless {
    if (!this.running) throw new Error('the bridge harness is not started');
    return this.running;
  }

  /** `http://127.0.0.1:<port>` of the bridge. */
  get origin(): string {
    return `http://127.0.0.1:${this.headless.port}`;
  }

  /** Writes the config (a memory backend, the HTTP fixture) and a test UI, then starts the bridge. */
  async start(): Promise<void> {
    this.remote = await spawnServer([fixture('http-server.mjs')], /LISTENING (\S+)/, { PORT: '0' });
    await mkdir(join(this.root, 'config', 'mcp-switchboard'), { recursive: true });
    await writeFile(
      this.configPath,
      JSON.stringify({
        mcpServers: {
          mem: nodeServer(MEMORY, [], {
            env: { API_TOKEN: ENV_SECRET, MEMORY_FILE_PATH: join(this.root, 'memory.jsonl') },
          }),
          remote: { url: this.remote.match[1], headers: { 'X-Api-Key': HEADER_SECRET } },
        },
      }),
    );
    await mkdir(join(this.uiDir, 'assets'), { recursive: true });
    await writeFile(join(this.uiDir, 'index.html'), UI_INDEX);
    await writeFile(join(this.uiDir, 'assets', 'app.js'), 'export {};\n');
    this.running = await startHeadless({
      config: this.configPath,
      host: '127.0.0.1',
      port: 0,
      launcher: { command: process.execPath, args: [BIN] },
      uiDir: this.uiDir,
    });
    await this.running.core.start();
  }

  /** Closes every client, the bridge and the fixture, and deletes the temporary folder. */
  async stop(): Promise<void> {
    await Promise.allSettled(this.clients.map((client) => client.close()));
    await Promise.allSettled(this.mcpClients.map((client) => client.close()));
    await this.running?.stop();
    await this.remote?.stop();
    await rm(this.root, { recursive: true, force: true });
  }

  /** A bridge client with the main token, or with a UI session cookie. */
  async bridge(options: { cookie?: string } = {}): Promise<BridgeClient> {
    const client = await connectBridge({
      origin: this.origin,
      ...(options.cookie ? { cookie: options.cookie } : { token: this.headless.token }),
    });
    this.clients.push(client);
    return client;
  }

  /** An MCP client of the endpoint with the main token, of either era. */
  async mcpClient(era: 'legacy' | 'modern'): Promise<Client> {
    const client = new Client(
      { name: `bridge-${era}`, version: '4.5.6' },
      era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(this.headless.url), {
        requestInit: { headers: { Authorization: `Bearer ${this.headless.token}` } },
      }),
    );
    this.mcpClients.push(client);
    return client;
  }

  /** The `mcpServers` of the config file as saved. */
  async savedServers(): Promise<Record<string, Record<string, unknown>>> {
    const saved = JSON.parse(await readFile(this.configPath, 'utf8')) as {
      mcpServers: Record<string, Record<string, unknown>>;
    };
    return saved.mcpServers;
  }
}
