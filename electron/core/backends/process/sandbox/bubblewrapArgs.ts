/**
 * A sandbox policy as a bubblewrap command line (Linux). bubblewrap does the
 * enforcing (namespaces, mounts, no new privileges); this file only says what
 * to mount where. The server runs in a new root holding nothing but the
 * policy's mounts, a private /tmp and home, a minimal /dev and its own /proc,
 * in its own user, PID, IPC and UTS namespaces, and in an empty network
 * namespace unless the network is allowed. `--die-with-parent` ends it with
 * the bwrap process we start, and `--new-session` keeps it off our terminal.
 */
import type { SandboxMount, SandboxPolicy } from './sandboxPolicy.js';

/** Where the filtering proxy's socket appears inside, and the port socat serves it on. */
const PROXY_SOCKET_INSIDE = '/run/switchboard/proxy.sock';
const PROXY_PORT_INSIDE = 3128;

/** A path as one shell word (quoted only when it needs to be). */
function shellWord(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/**
 * With a list of hosts: socat serves the proxy's socket on 127.0.0.1 inside
 * (waiting, at most a second, until it answers), then the server replaces the
 * shell; HTTP clients find the proxy through the usual variables (Node 22.21+
 * through NODE_USE_ENV_PROXY).
 */
function throughProxy(
  command: string,
  args: string[],
  socket = PROXY_SOCKET_INSIDE,
): { argv: string[]; env: string[] } {
  const proxy = `http://127.0.0.1:${PROXY_PORT_INSIDE}`;
  const script = [
    `socat TCP-LISTEN:${PROXY_PORT_INSIDE},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${shellWord(socket)} &`,
    'i=0; while [ $i -lt 50 ] && ! socat -u OPEN:/dev/null TCP:127.0.0.1:' +
      PROXY_PORT_INSIDE +
      ' 2>/dev/null; do sleep 0.02; i=$((i+1)); done',
    'exec "$@"',
  ].join('\n');
  const env: string[] = [];
  for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy'])
    env.push('--setenv', name, proxy);
  env.push('--setenv', 'NO_PROXY', '', '--setenv', 'no_proxy', '', '--setenv', 'NODE_USE_ENV_PROXY', '1');
  return { argv: ['/bin/sh', '-c', script, 'sh', command, ...args], env };
}

/**
 * Every mount, the private /tmp and home among them, parents before children:
 * a grant inside the home lands on the private home, and a grant of a folder
 * that holds the home (a test's temp folder) is covered again by the private
 * home rather than showing the real one.
 */
function inDepthOrder(policy: SandboxPolicy): SandboxMount[] {
  const all: SandboxMount[] = [
    { source: policy.privateTmp, target: '/tmp', mode: 'rw', optional: false },
    { source: policy.privateHome, target: policy.home, mode: 'rw', optional: false },
    ...policy.mounts,
  ];
  const depth = (path: string): number => path.split('/').filter(Boolean).length;
  // Stable: at one depth, the private folders come first and a grant of that very path wins.
  return all
    .map((mount, at) => ({ mount, at }))
    .sort((a, b) => depth(a.mount.target) - depth(b.mount.target) || a.at - b.at)
    .map(({ mount }) => mount);
}

/** The command line: `bwrap <these> -- <command> <args>`. */
export function bubblewrapArgs(policy: SandboxPolicy, command: string, args: string[]): string[] {
  const argv = ['--unshare-all', '--die-with-parent', '--new-session'];
  if (policy.network === 'all') argv.push('--share-net');
  argv.push('--dev', '/dev', '--proc', '/proc');
  for (const link of policy.links) argv.push('--symlink', link.target, link.path);
  for (const mount of inDepthOrder(policy)) {
    const flag = mount.mode === 'rw' ? '--bind' : '--ro-bind';
    argv.push(mount.optional ? `${flag}-try` : flag, mount.source, mount.target);
  }
  argv.push('--setenv', 'HOME', policy.home, '--setenv', 'TMPDIR', '/tmp');
  // A package runner's cache is the private home's (~/.npm): `npm run serve` passes npm's own
  // cache folder in npm_config_cache, which the sandbox cannot write, and npx would then
  // download its package again at every start.
  argv.push('--unsetenv', 'npm_config_cache', '--unsetenv', 'NPM_CONFIG_CACHE');
  if (!policy.proxySocket) {
    argv.push('--chdir', policy.cwd, '--', command, ...args);
    return argv;
  }
  const proxied = throughProxy(command, args);
  argv.push('--bind', policy.proxySocket, PROXY_SOCKET_INSIDE, ...proxied.env);
  argv.push('--chdir', policy.cwd, '--', ...proxied.argv);
  return argv;
}

/** The address learn mode's proxy listens on inside (its own connections to it are not the server's). */
export const LEARN_PROXY_ADDRESS = `127.0.0.1:${PROXY_PORT_INSIDE}`;

/** What learn mode's permissive sandbox is run with (learnRun.ts). */
export interface LearningLine {
  /** Where the server starts. */
  cwd: string;
  /** The recording proxy's socket, on the host (visible at the same path inside). */
  proxySocket: string;
  /** strace's path, and the file it writes its record to (at the same path inside). */
  strace: string;
  traceFile: string;
}

/**
 * Learn mode's command line: the server sees the machine's files as it would
 * unsandboxed (`/` bound at `/`, with a minimal /dev and its own /proc), so
 * it does what it needs, under strace recording each file system call and
 * connect(); its network is the recording proxy only (an empty network
 * namespace otherwise), which yields the names of the hosts it asks for. No
 * argument or variable of the server is in strace's record (`raw=execve`).
 */
export function learningBubblewrapArgs(line: LearningLine, command: string, args: string[]): string[] {
  const argv = [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
  ];
  const traced = [
    '-f',
    '-qq',
    '-y',
    '-s',
    '4096',
    '-e',
    'trace=%file,connect',
    '-e',
    'raw=execve',
    '-e',
    'signal=none',
    '-o',
    line.traceFile,
    '--',
    command,
    ...args,
  ];
  const proxied = throughProxy(line.strace, traced, line.proxySocket);
  argv.push('--unsetenv', 'npm_config_cache', '--unsetenv', 'NPM_CONFIG_CACHE', ...proxied.env);
  argv.push('--chdir', line.cwd, '--', ...proxied.argv);
  return argv;
}
