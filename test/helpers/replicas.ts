/**
 * Replicas of the built `serve` behind a real HAProxy (Debian's /usr/sbin/haproxy), on
 * loopback, for the cluster tests and bench/replicas.ts. Every replica reads the same
 * config file; where this machine lets an unprivileged mount namespace be made (`unshare
 * -rm`), the file's directory is mounted read-only inside each replica's namespace, as a
 * Kubernetes ConfigMap is. Each replica has its own state and config directories, the same
 * main token, and a fixed port, so a restarted replica takes its place behind the balancer.
 * HAProxy is configured as docs/deploy.md says: health checks on /readyz, 2025-era
 * sessions kept on their replica by a stick table learnt from the `Mcp-Session-Id`
 * response header, `option redispatch`, and retries of connection failures and 503s only.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN } from './cli.js';

export const HAPROXY = '/usr/sbin/haproxy';
export const CLUSTER_TOKEN = 'cluster-test-token-0123456789abcdef';

/** Whether HAProxy is installed here. */
export function haproxyAvailable(): boolean {
  return spawnSync(HAPROXY, ['-v']).status === 0;
}

/** Whether a private mount namespace can be made here, to mount the config directory read-only. */
export function readOnlyMountAvailable(): boolean {
  return spawnSync('unshare', ['-rm', 'sh', '-c', 'mount --bind -o ro /tmp /tmp'], { stdio: 'ignore' }).status === 0;
}

/**
 * A free TCP port on loopback below Linux's ephemeral range (32768 and up): a
 * replica restarted on its port must not find it taken by some outgoing
 * connection's source port meanwhile. Taken, then released: a short race the tests accept.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = createServer();
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!listening) continue;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }
}

/** One `serve` replica. */
export interface Replica {
  name: string;
  port: number;
  child: ChildProcess | undefined;
  /** Its log so far (stdout and stderr). */
  log: string;
}

/** The replicas and their balancer. */
export interface Cluster {
  /** The balancer's MCP URL. */
  url: string;
  replicas: Replica[];
  configPath: string;
  /** Whether the config directory is mounted read-only in each replica. */
  readOnlyConfig: boolean;
  /** HAProxy's process id (the bench reads its CPU time). */
  haproxyPid: number;
  /** HAProxy's own log so far (servers going up and down, with the reason). */
  haproxyLog(): string;
  /** Starts (or starts again) replica `name`; resolves once it listens. */
  start(name: string): Promise<void>;
  /** Sends `signal` to replica `name`; resolves once it exited, with its exit code. */
  stop(name: string, signal: NodeJS.Signals): Promise<number | null>;
  /** HAProxy's view of each server: its status (`UP`, `DOWN`, ...), by replica name. */
  status(): Promise<Record<string, string>>;
  /** Resolves once HAProxy sees every replica named (default all) UP. */
  waitUp(names?: string[], timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** What a cluster runs: the config every replica reads, how many replicas, and what each replica's environment adds. */
export interface ClusterOptions {
  config: Record<string, unknown>;
  replicas?: number;
  /** The mount namespace trick (default: when available). */
  readOnly?: boolean;
  /** HAProxy's health-check interval (default 200ms). */
  checkInter?: string;
}

/**
 * HAProxy's config for `replicas` (docs/deploy.md's, with short health checks). `sessions`:
 * `stick` learns each Mcp-Session-Id from the response that created it (the documented way);
 * `hash` hashes the request header instead, for the bench to show why that cannot work.
 */
export function haproxyConfig(
  port: number,
  statsPort: number,
  replicas: Pick<Replica, 'name' | 'port'>[],
  inter = '200ms',
  sessions: 'stick' | 'hash' = 'stick',
): string {
  const balance =
    sessions === 'stick'
      ? [
          '  balance roundrobin',
          '  stick-table type string len 64 size 100k expire 1h',
          '  stick match req.hdr(mcp-session-id)',
          '  stick store-response res.hdr(mcp-session-id)',
        ]
      : ['  balance hdr(mcp-session-id)'];
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    // A busy replica's /readyz may take longer than the check interval: only a refused or failed check marks it down.
    '  timeout check 2s',
    '  timeout client 1h',
    '  timeout server 1h',
    '  retries 3',
    '  option redispatch',
    // Only what never reached a replica, or what a draining replica refused before doing it, is sent again.
    '  retry-on conn-failure 503',
    // A fresh connection per request: a request never lands on a kept-alive connection its replica has just dropped.
    '  http-reuse never',
    'frontend mcp',
    `  bind 127.0.0.1:${port}`,
    '  default_backend replicas',
    'frontend stats',
    `  bind 127.0.0.1:${statsPort}`,
    '  stats enable',
    '  stats uri /stats',
    'backend replicas',
    ...balance,
    '  option httpchk',
    '  http-check send meth GET uri /readyz hdr Host localhost',
    `  default-server inter ${inter} fall 1 rise 1`,
    ...replicas.map((replica) => `  server ${replica.name} 127.0.0.1:${replica.port} check`),
    '',
  ].join('\n');
}

/** Starts `options.replicas` (default 3) replicas of `serve` on one config, and HAProxy before them. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const root = await mkdtemp(join(tmpdir(), 'switchboard-cluster-'));
  const configDir = join(root, 'configmap');
  await mkdir(configDir);
  const configPath = join(configDir, 'config.json');
  await writeFile(configPath, JSON.stringify(options.config));
  const readOnlyConfig = options.readOnly ?? readOnlyMountAvailable();
  const replicas: Replica[] = [];
  for (let i = 1; i <= (options.replicas ?? 3); i += 1) {
    replicas.push({ name: `r${i}`, port: await freePort(), child: undefined, log: '' });
  }
  const port = await freePort();
  const statsPort = await freePort();
  const haproxyCfg = join(root, 'haproxy.cfg');
  await writeFile(haproxyCfg, haproxyConfig(port, statsPort, replicas, options.checkInter));
  const byName = (name: string): Replica => {
    const replica = replicas.find((candidate) => candidate.name === name);
    if (!replica) throw new Error(`no replica ${name}`);
    return replica;
  };

  // The port of a replica just killed may be held a moment by the sockets it left: try again for a while.
  const start = async (name: string): Promise<void> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await startOnce(name);
      } catch (error) {
        if (attempt >= 40 || !/EADDRINUSE/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  };

  const startOnce = async (name: string): Promise<void> => {
    const replica = byName(name);
    const running = replica.child && replica.child.exitCode === null && replica.child.signalCode === null;
    if (running) throw new Error(`replica ${name} is running already (pid ${replica.child!.pid})`);
    const home = join(root, name);
    const env = {
      ...process.env,
      REPLICA: name,
      SWITCHBOARD_TOKEN: CLUSTER_TOKEN,
      SWITCHBOARD_NO_BROWSER: '1',
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_STATE_HOME: join(home, 'state'),
      SWITCHBOARD_KEYCHAIN_SERVICE: `mcp-switchboard-cluster-${process.pid}-${name}`,
    };
    const serve = [BIN, 'serve', '--config', configPath, '--port', String(replica.port), '--no-open', '--quiet'];
    // `exec` all the way: the pid the test holds is serve's own, for kill -9.
    const child = readOnlyConfig
      ? spawn(
          'unshare',
          ['-rm', 'sh', '-c', 'mount --bind -o ro "$0" "$0" && exec "$@"', configDir, process.execPath, ...serve],
          { env, stdio: ['ignore', 'pipe', 'pipe'] },
        )
      : spawn(process.execPath, serve, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    replica.child = child;
    replica.log = '';
    child.stdout!.on('data', (chunk: Buffer) => (replica.log += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (replica.log += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`replica ${name} did not start: ${replica.log}`)), 30_000);
      const onData = (): void => {
        if (!replica.log.includes('MCP endpoint:')) return;
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve();
      };
      const onExit = (code: number | null): void => {
        clearTimeout(timer);
        reject(new Error(`replica ${name} exited (${code}): ${replica.log}`));
      };
      child.stdout!.on('data', onData);
      child.once('exit', onExit);
    });
  };

  const stop = async (name: string, signal: NodeJS.Signals): Promise<number | null> => {
    const child = byName(name).child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = once(child, 'exit') as Promise<[number | null]>;
    child.kill(signal);
    const [code] = await exited;
    return code;
  };

  const status = async (): Promise<Record<string, string>> => {
    const response = await fetch(`http://127.0.0.1:${statsPort}/stats;csv`);
    const rows = (await response.text()).split('\n').map((line) => line.split(','));
    const header = rows[0] ?? [];
    const [svname, statusColumn, checked] = ['svname', 'status', 'check_status'].map((name) => header.indexOf(name));
    // HAProxy counts a server UP before its first check: only a passed check (L7OK) says it is.
    const seen = (row: string[]): string =>
      row[statusColumn!] === 'UP' && row[checked!] !== 'L7OK' ? 'UNCHECKED' : row[statusColumn!]!;
    return Object.fromEntries(
      rows
        .filter((row) => row[0] === 'replicas' && replicas.some((replica) => replica.name === row[svname!]))
        .map((row) => [row[svname!]!, seen(row)]),
    );
  };

  const waitUp = async (names = replicas.map((replica) => replica.name), timeoutMs = 20_000): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const seen = await status().catch(() => ({}) as Record<string, string>);
      if (names.every((name) => seen[name] === 'UP')) return;
      if (Date.now() > deadline) throw new Error(`replicas not UP in HAProxy: ${JSON.stringify(seen)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  await Promise.all(replicas.map((replica) => start(replica.name)));
  const haproxy = spawn(HAPROXY, ['-f', haproxyCfg, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let haproxyLog = '';
  haproxy.stderr!.on('data', (chunk: Buffer) => (haproxyLog += chunk.toString()));
  const close = async (): Promise<void> => {
    const exits = replicas.map((replica) => stop(replica.name, 'SIGTERM'));
    if (haproxy.exitCode === null) {
      const exited = once(haproxy, 'exit');
      haproxy.kill('SIGTERM');
      await exited;
    }
    await Promise.allSettled(exits);
    await rm(root, { recursive: true, force: true });
  };
  try {
    await waitUp();
  } catch (error) {
    await close();
    throw new Error(`${(error as Error).message}\nhaproxy: ${haproxyLog}`);
  }
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    replicas,
    configPath,
    readOnlyConfig,
    haproxyPid: haproxy.pid!,
    haproxyLog: () => haproxyLog,
    start,
    stop,
    status,
    waitUp,
    close,
  };
}
