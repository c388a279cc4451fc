/**
 * Where a package runner fetches the server it runs: `npx -y pkg@1.2.3`
 * asks the npm registry for the package at every start, `uvx pkg` asks the
 * Python index. A sandboxed server started that way may reach exactly those
 * hosts (through its host list's proxy), however its own network is set, and
 * keeps its downloads in its private home: it declares its package, so it may
 * fetch it, and nothing it fetches is shared with other servers.
 */
import { basename } from 'node:path';

/** The registry hosts a command's package runner needs (empty for any other command). */
export function packageRegistryHosts(command: string, env: Record<string, string>): string[] {
  const name = basename(command).replace(/\.(cmd|exe)$/i, '');
  if (['npx', 'npm', 'pnpm', 'pnpx', 'yarn', 'bunx', 'bun'].includes(name))
    return [hostOf(env['npm_config_registry'] ?? env['NPM_CONFIG_REGISTRY']) ?? 'registry.npmjs.org'];
  if (['uvx', 'uv', 'pipx', 'pip'].includes(name)) {
    const index = hostOf(env['UV_INDEX_URL'] ?? env['UV_DEFAULT_INDEX'] ?? env['PIP_INDEX_URL']);
    return index ? [index] : ['pypi.org', 'files.pythonhosted.org'];
  }
  return [];
}

/** `host[:port]` of a URL, or undefined. */
function hostOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).host || undefined;
  } catch {
    return undefined;
  }
}
