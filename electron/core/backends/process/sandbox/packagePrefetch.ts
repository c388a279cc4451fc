/**
 * A quarantined npx server with no network at all. The strict sandbox a
 * server is reviewed under allows no host, yet `npx -y pkg@1.2.3` fetches its
 * package (and every dependency) from the registry at its first start, so it
 * used to be let through to the registry while quarantined: a way out for
 * whatever it read (its environment's keys, in a query string). Instead,
 * Switchboard fetches the package tree first, outside the sandbox, into the
 * server's private npm cache, with `npm install --ignore-scripts` (npm only
 * downloads and unpacks: no code of the package runs there), and npx then
 * runs offline inside the sandbox (`npm_config_offline`), installing from that
 * cache and running the package's install scripts, if it has any, contained.
 * The commands that run other package managers (uvx, pnpm dlx) keep their
 * registry (sandboxedLaunch.ts packageRegistryHosts).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { ErrorCode, SwitchboardError } from '../../../../../shared/errors.js';
import { findCommand, searchPath } from '../commandLookup.js';

/** How long fetching a package tree may take (a cold cache downloads hundreds of tarballs). */
const PREFETCH_TIMEOUT_MS = 180_000;

/** npx's options that take a value (the next argument), other than `--package`/`-p`. */
const VALUED = new Set(['--call', '-c', '--cache', '--registry', '--userconfig', '--workspace', '-w']);

/**
 * The packages `npx <args>` runs (undefined: not npx, or no package named):
 * each `--package`/`-p`, else the first argument that is not an option.
 */
export function npxPackages(command: string, args: readonly string[]): string[] | undefined {
  if (basename(command).replace(/\.(cmd|exe)$/i, '') !== 'npx') return undefined;
  const packages: string[] = [];
  let first: string | undefined;
  for (let at = 0; at < args.length; at++) {
    const arg = args[at]!;
    if (arg === '--') {
      first ??= args[at + 1];
      break;
    }
    if (arg === '-p' || arg === '--package') {
      const value = args[++at];
      if (value !== undefined) packages.push(value);
    } else if (arg.startsWith('--package=')) packages.push(arg.slice('--package='.length));
    else if (VALUED.has(arg)) at++;
    else if (!arg.startsWith('-')) {
      first = arg;
      break;
    }
  }
  const specs = packages.length > 0 ? packages : first === undefined ? [] : [first];
  return specs.length > 0 ? specs : undefined;
}

/** What a prefetch needs: the server's environment (its PATH finds npm; its npm settings apply). */
export interface PrefetchOptions {
  /** The npm cache the sandboxed npx will read (the private home's `.npm`). */
  cacheDir: string;
  env: Record<string, string>;
  /** The npx that will run, resolved: the npm beside it does the fetching. */
  resolvedNpx?: string | undefined;
  timeoutMs?: number;
}

/** The npm to fetch with: the one beside npx (same installation), else npm on the server's PATH. */
function npmBeside(options: PrefetchOptions): string {
  if (options.resolvedNpx) {
    const beside = findCommand('npm', dirname(options.resolvedNpx));
    if (beside) return beside;
  }
  return findCommand('npm', searchPath(options.env)) ?? 'npm';
}

/**
 * Fetches `specs` and their whole dependency tree into `options.cacheDir`
 * (npm's cache folder), running none of their scripts; a cache that holds
 * them already answers without the network (`--prefer-offline`). Rejects with
 * `connect_failed`, naming the package and npm's own last line, when npm
 * cannot (offline, an unknown package, a timeout).
 */
export async function prefetchPackages(specs: readonly string[], options: PrefetchOptions): Promise<void> {
  await mkdir(options.cacheDir, { recursive: true, mode: 0o700 });
  const scratch = await mkdtemp(join(tmpdir(), 'switchboard-prefetch-'));
  const common = ['--prefer-offline', '--no-audit', '--no-fund', '--cache', options.cacheDir];
  try {
    // The whole tree, unpacked in a scratch folder and dropped: what stays is the cache.
    const install = ['install', '--ignore-scripts', '--no-save', '--no-package-lock', '--prefix', scratch];
    await runNpm([...install, ...common, ...specs], specs, options);
    // npx resolves the packages it runs with the registry's abbreviated documents, which install does not keep.
    await runNpm(['cache', 'add', ...common, ...specs], specs, options);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** One npm command of a prefetch; rejects with `connect_failed` naming the packages and npm's last line. */
function runNpm(args: string[], specs: readonly string[], options: PrefetchOptions): Promise<void> {
  const timeout = options.timeoutMs ?? PREFETCH_TIMEOUT_MS;
  return new Promise<void>((resolve, reject) => {
    execFile(
      npmBeside(options),
      args,
      {
        env: { ...options.env, npm_config_update_notifier: 'false', npm_config_loglevel: 'error' },
        timeout,
        maxBuffer: 4 * 1024 * 1024,
      },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        const said = String(stderr).trim().split('\n').filter(Boolean).at(-1);
        const why = error.killed ? `no answer within ${Math.round(timeout / 1000)} s` : said || error.message;
        reject(
          new SwitchboardError(
            ErrorCode.ConnectFailed,
            `could not fetch ${specs.join(', ')} for its start under the strict sandbox (which has no network): npm ${args[0]} said: ${why}`,
            { packages: [...specs] },
          ),
        );
      },
    );
  });
}
