/**
 * The built `serve` over HTTP as a child process, with its own config and
 * state dirs, for tests that measure the proxy process itself (its RSS, its
 * log lines) apart from the test's clients.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BIN } from './cli.js';

/** A running `serve`. */
export interface ServedHttp {
  url: string;
  /** Its XDG config and state dirs live here (removed by `stop`). */
  home: string;
  token: string;
  /** Its config file. */
  configPath: string;
  pid: number;
  /** The environment it runs in (its XDG dirs, keychain service): a CLI command given it sees the same files. */
  env: Record<string, string>;
  /** Its stderr so far (log lines). */
  stderr(): string;
  /** Its resident set size now, MB (Linux /proc). */
  rssMb(): Promise<number>;
  /** A 2025-era SDK client of the endpoint (closed by `stop`). */
  connect(): Promise<Client>;
  stop(): Promise<void>;
}

/** What else a `serve` gets: variables of its environment, arguments after `serve --config F --port P`, the port (default 0). */
export interface ServeExtras {
  env?: Record<string, string>;
  args?: string[];
  port?: number;
  /** Runs with serve's config directory (`<XDG_CONFIG_HOME>/mcp-switchboard`) before it starts, e.g. to issue client tokens. */
  prepare?: (configDir: string) => Promise<void>;
}

/** Starts `serve --port 0` (or `extras.port`) on `config`; resolves once it prints its endpoint. */
export async function startServeHttp(config: Record<string, unknown>, extras: ServeExtras = {}): Promise<ServedHttp> {
  const home = await mkdtemp(join(tmpdir(), 'switchboard-serve-'));
  const configPath = join(home, 'config.json');
  await writeFile(configPath, JSON.stringify(config));
  await extras.prepare?.(join(home, 'mcp-switchboard'));
  const token = 'serve-test-token-0123456789';
  const dirs = {
    SWITCHBOARD_TOKEN: token,
    XDG_CONFIG_HOME: home,
    XDG_STATE_HOME: join(home, 'state'),
    // Its own keychain service: a client-token key never lands in the user's keychain entry.
    SWITCHBOARD_KEYCHAIN_SERVICE: `mcp-switchboard-serve-test-${process.pid}`,
  };
  const env = { ...process.env, ...dirs, ...extras.env };
  const args = [BIN, 'serve', '--config', configPath, '--port', String(extras.port ?? 0), ...(extras.args ?? [])];
  const child: ChildProcess = spawn(process.execPath, args, {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const clients: Client[] = [];
  const stop = async (): Promise<void> => {
    await Promise.allSettled(clients.map((client) => client.close()));
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    await rm(home, { recursive: true, force: true });
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = /MCP endpoint: (\S+)/.exec(stdout);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${stderr}`)));
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  child.removeAllListeners('exit');
  return {
    url,
    home,
    token,
    configPath,
    env: dirs,
    pid: child.pid!,
    stderr: () => stderr,
    async rssMb() {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    },
    async connect() {
      const client = new Client({ name: 'serve-test', version: '1.0.0' });
      const headers = { Authorization: `Bearer ${token}` };
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      clients.push(client);
      return client;
    },
    stop,
  };
}
