/**
 * A quarantined npx or pnpm dlx server with no network at all. The strict sandbox a
 * server is reviewed under allows no host, yet `npx -y pkg@1.2.3` fetches its
 * package (and every dependency) from the registry at its first start, so it
 * used to be let through to the registry while quarantined: a way out for
 * whatever it read (its environment's keys, in a query string). Instead,
 * Switchboard fetches the package tree first, outside the sandbox, into the
 * server's private npm cache, with `npm install --ignore-scripts` (npm only
 * downloads and unpacks: no code of the package runs there), and npx then
 * runs offline inside the sandbox (`npm_config_offline`), installing from that
 * cache and running the package's install scripts, if it has any, contained.
 * `pnpm dlx` (and `pnpx`) the same way: `pnpm add --ignore-scripts` fills the
 * private home's pnpm store and metadata cache, and dlx runs offline from them
 * (both generations of pnpm's settings in the environment: `npm_config_*` up to
 * pnpm 10, `pnpm_config_*` after). `bunx` (and `bun x`): `bun add
 * --ignore-scripts` fills the private home's bun cache, and since bunx asks
 * the registry for the latest version of a package named without one even
 * when it has it, the quarantined line names the exact version just fetched
 * (`pkg@1.2.3` for `pkg`: what bunx would have run now). uvx keeps its index
 * (sandboxedLaunch.ts packageRegistryHosts): none can be reached from here to
 * build and test its fetch.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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

/** `pnpm`'s options before its command that take a value (the next argument). */
const PNPM_VALUED = new Set(['--dir', '-C', '--filter', '-F', '--workspace-root', '--loglevel', '--reporter']);

/**
 * The packages `pnpm dlx <args>` (or `pnpx <args>`) runs (undefined: not a
 * dlx line, or no package named): each `--package`, else the command named.
 */
export function pnpmDlxPackages(command: string, args: readonly string[]): string[] | undefined {
  const name = basename(command).replace(/\.(cmd|exe)$/i, '');
  let rest: readonly string[];
  if (name === 'pnpx') rest = args;
  else if (name === 'pnpm') {
    let at = 0;
    while (at < args.length && args[at]!.startsWith('-')) at += PNPM_VALUED.has(args[at]!) ? 2 : 1;
    if (args[at] !== 'dlx') return undefined;
    rest = args.slice(at + 1);
  } else return undefined;
  const packages: string[] = [];
  let first: string | undefined;
  for (let at = 0; at < rest.length; at++) {
    const arg = rest[at]!;
    if (arg === '--package') {
      const value = rest[++at];
      if (value !== undefined) packages.push(value);
    } else if (arg.startsWith('--package=')) packages.push(arg.slice('--package='.length));
    else if (arg === '--allow-build') at++;
    else if (!arg.startsWith('-')) {
      first = arg;
      break;
    }
  }
  const specs = packages.length > 0 ? packages : first === undefined ? [] : [first];
  return specs.length > 0 ? specs : undefined;
}

/** bunx's options that take a value (the next argument). */
const BUNX_VALUED = new Set(['-p', '--package']);

/**
 * Where `bunx <args>` (or `bun x <args>`) names its packages: the index in
 * `args` of each `--package`/`-p` value, else of the command it runs
 * (undefined: not a bunx line, or no package named).
 */
export function bunxPackageAt(command: string, args: readonly string[]): number[] | undefined {
  const name = basename(command).replace(/\.(cmd|exe)$/i, '');
  let from: number;
  if (name === 'bunx') from = 0;
  else if (name === 'bun' && args[0] === 'x') from = 1;
  else return undefined;
  const packages: number[] = [];
  for (let at = from; at < args.length; at++) {
    const arg = args[at]!;
    if (BUNX_VALUED.has(arg)) {
      if (at + 1 < args.length) packages.push(at + 1);
      at++;
    } else if (!arg.startsWith('-')) {
      if (packages.length === 0) packages.push(at);
      break;
    }
  }
  return packages.length > 0 ? packages : undefined;
}

/** A package runner whose packages can be fetched first, and the packages its line names. */
export interface OfflineRunner {
  runner: 'npx' | 'pnpm' | 'bunx';
  packages: string[];
  /** bunx: where in the line each package is named (it is named there with its exact version). */
  at?: number[];
}

/** The runner of a launch line that can run offline once its packages are fetched (undefined: none). */
export function offlineRunner(command: string, args: readonly string[]): OfflineRunner | undefined {
  const npx = npxPackages(command, args);
  if (npx) return { runner: 'npx', packages: npx };
  const pnpm = pnpmDlxPackages(command, args);
  if (pnpm) return { runner: 'pnpm', packages: pnpm };
  const at = bunxPackageAt(command, args);
  return at ? { runner: 'bunx', packages: at.map((index) => args[index]!), at } : undefined;
}

/** A package spec's name: `@scope/name@^1` -> `@scope/name`, `name@latest` -> `name`. */
export function packageName(spec: string): string {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  return at === -1 ? spec : spec.slice(0, at);
}

/** What a quarantined runner runs with once its packages are fetched: variables, and (bunx) its line. */
export interface OfflineLaunch {
  env: Record<string, string>;
  args?: string[];
}

/** What a prefetch needs: the server's environment (its PATH finds npm; its npm settings apply). */
export interface PrefetchOptions {
  /** The server's private home, as this process sees it (the fetch fills its caches). */
  privateHome: string;
  /** The same home as the sandboxed process sees it (its `HOME` inside). */
  insideHome: string;
  env: Record<string, string>;
  /** The runner that will run, resolved: npx's npm (or pnpm itself) does the fetching. */
  resolvedCommand?: string | undefined;
  timeoutMs?: number;
}

/** `name` beside the resolved runner (same installation), else on the server's PATH. */
function beside(name: string, options: PrefetchOptions): string {
  if (options.resolvedCommand) {
    const found = findCommand(name, dirname(options.resolvedCommand));
    if (found) return found;
  }
  return findCommand(name, searchPath(options.env)) ?? name;
}

/** pnpm's store and metadata cache under a home: where a fetch puts them and dlx reads them. */
function pnpmFolders(home: string): Record<string, string> {
  const store = join(home, '.local', 'share', 'pnpm', 'store');
  const cache = join(home, '.cache', 'pnpm');
  return {
    npm_config_store_dir: store,
    pnpm_config_store_dir: store,
    npm_config_cache_dir: cache,
    pnpm_config_cache_dir: cache,
  };
}

/**
 * Fetches what `runner` runs into the server's private home, running none of
 * its scripts, and answers the variables that make the runner use what was
 * fetched, offline, inside the sandbox (and for bunx the line, its packages
 * named with the versions fetched).
 */
export async function prefetchForOffline(
  runner: OfflineRunner,
  args: readonly string[],
  options: PrefetchOptions,
): Promise<OfflineLaunch> {
  if (runner.runner === 'npx') {
    await prefetchPackages(runner.packages, { ...options, cacheDir: join(options.privateHome, '.npm') });
    return { env: { npm_config_offline: 'true' } };
  }
  if (runner.runner === 'bunx') return prefetchForBunx(runner, args, options);
  const fetchFolders = pnpmFolders(options.privateHome);
  await mkdir(fetchFolders['npm_config_store_dir']!, { recursive: true, mode: 0o700 });
  const add = ['add', '--ignore-scripts', '--prefer-offline', ...runner.packages];
  await inScratch((scratch) =>
    runFetcher(beside('pnpm', options), add, runner.packages, options, fetchFolders, scratch),
  );
  return { env: { ...pnpmFolders(options.insideHome), npm_config_offline: 'true', pnpm_config_offline: 'true' } };
}

/** Runs `work` in a scratch folder of its own, removed afterwards (what a fetch keeps is its cache). */
async function inScratch<T>(work: (scratch: string) => Promise<T>): Promise<T> {
  const scratch = await mkdtemp(join(tmpdir(), 'switchboard-prefetch-'));
  try {
    return await work(scratch);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** bunx: its packages into the private home's bun cache, and its line naming the versions fetched. */
async function prefetchForBunx(
  runner: OfflineRunner,
  args: readonly string[],
  options: PrefetchOptions,
): Promise<OfflineLaunch> {
  const cache = (home: string) => join(home, '.bun', 'install', 'cache');
  await mkdir(cache(options.privateHome), { recursive: true, mode: 0o700 });
  return inScratch(async (scratch) => {
    await writeFile(join(scratch, 'package.json'), '{}\n');
    const add = ['add', '--ignore-scripts', ...runner.packages];
    await runFetcher(
      beside('bun', options),
      add,
      runner.packages,
      options,
      { BUN_INSTALL_CACHE_DIR: cache(options.privateHome) },
      scratch,
    );
    const pinned = [...args];
    for (const [index, at] of (runner.at ?? []).entries()) {
      const name = packageName(runner.packages[index]!);
      // A spec that is no registry name (a git URL, a tarball) has no folder by that name: its line stays as it is.
      const manifest = await readFile(join(scratch, 'node_modules', name, 'package.json'), 'utf8')
        .then((text) => JSON.parse(text) as { version?: unknown })
        .catch(() => undefined);
      if (typeof manifest?.version === 'string') pinned[at] = `${name}@${manifest.version}`;
    }
    return { env: { BUN_INSTALL_CACHE_DIR: cache(options.insideHome) }, args: pinned };
  });
}

/**
 * Fetches `specs` and their whole dependency tree into `options.cacheDir`
 * (npm's cache folder), running none of their scripts; a cache that holds
 * them already answers without the network (`--prefer-offline`). Rejects with
 * `connect_failed`, naming the package and npm's own last line, when npm
 * cannot (offline, an unknown package, a timeout).
 */
export async function prefetchPackages(
  specs: readonly string[],
  options: PrefetchOptions & { cacheDir: string },
): Promise<void> {
  await mkdir(options.cacheDir, { recursive: true, mode: 0o700 });
  const common = ['--prefer-offline', '--no-audit', '--no-fund', '--cache', options.cacheDir];
  const npm = beside('npm', options);
  await inScratch(async (scratch) => {
    // The whole tree, unpacked in a scratch folder and dropped: what stays is the cache.
    const install = ['install', '--ignore-scripts', '--no-save', '--no-package-lock', '--prefix', scratch];
    await runFetcher(npm, [...install, ...common, ...specs], specs, options);
  });
  // npx resolves the packages it runs with the registry's abbreviated documents, which install does not keep.
  await runFetcher(npm, ['cache', 'add', ...common, ...specs], specs, options);
}

/** One command of a prefetch; rejects with `connect_failed` naming the packages and the fetcher's last line. */
function runFetcher(
  fetcher: string,
  args: string[],
  specs: readonly string[],
  options: PrefetchOptions,
  extraEnv: Record<string, string> = {},
  cwd?: string,
): Promise<void> {
  const timeout = options.timeoutMs ?? PREFETCH_TIMEOUT_MS;
  return new Promise<void>((resolve, reject) => {
    execFile(
      fetcher,
      args,
      {
        env: { ...options.env, ...extraEnv, npm_config_update_notifier: 'false', npm_config_loglevel: 'error' },
        timeout,
        maxBuffer: 4 * 1024 * 1024,
        ...(cwd ? { cwd } : {}),
      },
      (error, _stdout, stderr) => {
        if (!error) return resolve();
        const said = String(stderr).trim().split('\n').filter(Boolean).at(-1);
        const why = error.killed ? `no answer within ${Math.round(timeout / 1000)} s` : said || error.message;
        reject(
          new SwitchboardError(
            ErrorCode.ConnectFailed,
            `could not fetch ${specs.join(', ')} for its start under the strict sandbox (which has no network): ${basename(fetcher).replace(/\.(cmd|exe)$/i, '')} ${args[0]} said: ${why}`,
            { packages: [...specs] },
          ),
        );
      },
    );
  });
}
