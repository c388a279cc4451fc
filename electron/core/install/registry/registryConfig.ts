/**
 * Which registries to search: `registry.url` in config.json (one URL or a
 * list, so a company registry can sit beside the official one), else
 * `SWITCHBOARD_REGISTRY_URL` (comma-separated), else the official registry.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HttpCache } from './httpCache.js';
import { OFFICIAL_REGISTRY, RegistryClient } from './registryClient.js';

/** The registry URLs configured in `document` (a parsed config.json), or a problem naming the field. */
export function registryUrlsOf(document: unknown): { urls?: string[]; problem?: string } {
  const section = (document as { registry?: unknown } | null)?.registry;
  if (section === undefined) return {};
  const raw = (section as { url?: unknown } | null)?.url;
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list) || list.length === 0) return { problem: 'registry.url: must be a URL or a list of URLs' };
  for (const [i, url] of list.entries()) {
    if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url)) {
      return { problem: `registry.url${Array.isArray(raw) ? `.${i}` : ''}: must be an http(s) URL` };
    }
  }
  return { urls: list as string[] };
}

/** The registry URLs for a config file (missing file: the defaults). */
export async function registryUrls(configPath: string, environment: NodeJS.ProcessEnv): Promise<string[]> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(configPath, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const configured = registryUrlsOf(document);
  if (configured.problem) throw new Error(`${configPath}: ${configured.problem}`);
  if (configured.urls) return configured.urls;
  const fromEnv = (environment['SWITCHBOARD_REGISTRY_URL'] ?? '')
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean);
  return fromEnv.length > 0 ? fromEnv : [OFFICIAL_REGISTRY];
}

/** A registry client for a config file, caching in `<state dir>/registry-cache`. */
export async function registryClientFor(
  configPath: string,
  stateDir: string,
  environment: NodeJS.ProcessEnv,
): Promise<RegistryClient> {
  return new RegistryClient({
    urls: await registryUrls(configPath, environment),
    cache: new HttpCache({ directory: join(stateDir, 'registry-cache') }),
  });
}
