/**
 * A sandboxed `npx -y <package>@<version>` keeps its downloads in the server's
 * private home (sandbox/sandboxedLaunch.ts packageRegistryHosts), so every test that added an npm
 * entry downloaded the package and its whole dependency tree from the npm
 * registry again (20-40 s each on CI's machine). This fills a private home's
 * npx cache (`~/.npm/_npx/<hash>`, the folder npx installs into) the way an
 * earlier `npx -y` of the same package would have, before the server's first
 * start, and its npm cache (`~/.npm/_cacache`) with the package's tree: npx
 * then still resolves the package against the registry (through the sandbox's
 * host list proxy; quarantined, offline from that cache) and runs it
 * sandboxed, but installs nothing.
 * The filled folder is made once per machine (a lock keeps parallel test
 * files from making it twice) by `npm install` from npm's own cache, which
 * `npm ci` filled with these devDependencies, and each home gets hard links
 * to its files (thousands of them: a copy costs what the download did).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFile, cp, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { lock } from 'proper-lockfile';

const run = promisify(execFile);

/** How long making a filled cache may take (npm fetches what its own cache lacks). */
const FILL_TIMEOUT_MS = 120_000;

/**
 * The folder npx installs `specs` into under its cache (libnpmexec: the first
 * 16 hex digits of the SHA-512 of the sorted specs, one a line).
 */
export function npxFolderName(specs: string[]): string {
  const sorted = [...specs].sort((a, b) => a.localeCompare(b, 'en'));
  return createHash('sha512').update(sorted.join('\n')).digest('hex').slice(0, 16);
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** A `.npm` folder whose npx cache holds `spec` installed, made once per machine; returns its path. */
async function filledNpmFolder(spec: string): Promise<string> {
  const root = join(tmpdir(), 'switchboard-test-npx-cache-3');
  const npmFolder = join(root, npxFolderName([spec]), '.npm');
  if (await exists(npmFolder)) return npmFolder;
  await mkdir(root, { recursive: true });
  const release = await lock(root, { retries: { retries: 240, minTimeout: 250, maxTimeout: 500 }, stale: 60_000 });
  try {
    if (await exists(npmFolder)) return npmFolder;
    const making = `${npmFolder}.making-${process.pid}`;
    await rm(making, { recursive: true, force: true });
    const installDir = join(making, '_npx', npxFolderName([spec]));
    await mkdir(installDir, { recursive: true });
    // Its own cache (`_cacache` beside `_npx`): a quarantined start fetches the tree into the private
    // cache first (packagePrefetch.ts), and finds it all there, with no download.
    const args = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--cache', making, '--prefix', installDir];
    const env = { ...process.env, npm_config_update_notifier: 'false' };
    await run('npm', [...args, spec], { timeout: FILL_TIMEOUT_MS, env });
    // And the registry's abbreviated document of the package itself, which npx reads to resolve it.
    await run('npm', ['cache', 'add', '--prefer-offline', '--cache', making, spec], { timeout: FILL_TIMEOUT_MS, env });
    await rename(making, npmFolder);
    return npmFolder;
  } finally {
    await release();
  }
}

/** `from` at `to`: hard links to its files (GNU cp), else a copy (another cp, another file system). */
async function linkTree(from: string, to: string): Promise<void> {
  try {
    await run('cp', ['-al', from, to], { timeout: FILL_TIMEOUT_MS });
  } catch {
    await rm(to, { recursive: true, force: true });
    // Links (node_modules/.bin) stay relative: the filled folder is not visible inside the sandbox.
    await cp(from, to, { recursive: true, verbatimSymlinks: true });
  }
}

/**
 * Fills the npx cache of backend `backendId`'s private home under Switchboard's
 * state directory `stateDir` with `spec` (e.g. `@modelcontextprotocol/server-memory@2026.8.31`),
 * as `npx -y <spec>` leaves it.
 */
export async function fillSandboxNpxCache(stateDir: string, backendId: string, spec: string): Promise<void> {
  const home = join(stateDir, 'sandboxes', backendId, 'home');
  await mkdir(home, { recursive: true, mode: 0o700 });
  await linkTree(await filledNpmFolder(spec), join(home, '.npm'));
  // npx rewrites the install folder's package.json at each run: each home gets its own, not a link.
  const installDir = join(home, '.npm', '_npx', npxFolderName([spec]));
  for (const entry of await readdir(installDir, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(installDir, entry.name);
    await copyFile(file, `${file}.own`);
    await rename(`${file}.own`, file);
  }
}
