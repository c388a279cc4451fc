/**
 * A real Redis for tests: Debian's `redis-server` on a free loopback port,
 * its data in a temporary directory (append-only file on, as docs/deploy.md
 * configures it, so a restart keeps what was written). `restart()` stops it
 * and starts it again on the same port and data; `stop()` ends it for good.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './spawnServer.js';

/** Where Debian puts it (apt: redis-server). */
export const REDIS_SERVER = process.env['REDIS_SERVER_PATH'] ?? '/usr/bin/redis-server';

/** Why Redis tests cannot run here, or undefined when they can (in CI they must). */
export function redisMissing(): string | undefined {
  return existsSync(REDIS_SERVER) ? undefined : `no redis-server at ${REDIS_SERVER} (apt install redis-server)`;
}

export interface RedisServer {
  port: number;
  url: string;
  /** Stops Redis (SIGTERM: it saves its append-only file) and starts it again on the same port and data. */
  restart(): Promise<void>;
  /** Stops Redis until `start()`. */
  pause(): Promise<void>;
  /** Starts Redis again after `pause()`. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** How often Redis fsyncs its append-only file: every write (tests: nothing acknowledged is lost) or once a second. */
export type AppendFsync = 'always' | 'everysec';

function launch(port: number, dir: string, appendfsync: AppendFsync): Promise<ChildProcess> {
  const child = spawn(
    REDIS_SERVER,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      appendfsync,
      '--save',
      '',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}: ${output}`));
    });
  });
}

async function end(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Starts a Redis of its own for a test file. */
export async function startRedis(options: { appendfsync?: AppendFsync } = {}): Promise<RedisServer> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-redis-'));
  const port = await freePort();
  const fsync = options.appendfsync ?? 'always';
  let child: ChildProcess | undefined = await launch(port, dir, fsync);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async restart() {
      await end(child);
      child = await launch(port, dir, fsync);
    },
    async pause() {
      await end(child);
      child = undefined;
    },
    async start() {
      child ??= await launch(port, dir, fsync);
    },
    async stop() {
      await end(child);
      child = undefined;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
