/**
 * A client of MCP registries (the official one, and any company registry
 * beside it), per the registry's OpenAPI document (docs/reference/api/openapi.yaml,
 * API version /v0.1): `GET /v0.1/servers?search=&cursor=&limit=&version=`,
 * `GET /v0.1/servers/{name}/versions` and `GET /v0.1/servers/{name}/versions/{version}`
 * (`latest` for the latest). Answers are `{servers: [{server, _meta}], metadata:
 * {nextCursor, count}}` or one `{server, _meta}`. Every document is validated
 * against the official schema before it is returned.
 */
import type { HttpCache } from './httpCache.js';
import { HttpStatusError, type CachedJson } from './httpCache.js';
import type { Freshness, OfficialMeta, RegistryEntry, SearchPage } from './registryTypes.js';
import { validateServerJson } from './validate.js';

/** The official MCP Registry. */
export const OFFICIAL_REGISTRY = 'https://registry.modelcontextprotocol.io';
const API = '/v0.1';
const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

/** Options of {@link RegistryClient}. */
export interface RegistryClientOptions {
  /** Base URLs, searched in this order (first one wins for a name found in several). */
  urls: string[];
  cache: HttpCache;
}

/** A registry name and version, as `add` takes it: `io.github.user/weather[@1.0.2]`. */
export function parseRegistryRef(text: string): { name: string; version: string } {
  const at = text.lastIndexOf('@');
  // A leading @ belongs to no registry name (names are reverse-DNS), so only an @ after the slash splits.
  if (at > text.indexOf('/') && at > 0) return { name: text.slice(0, at), version: text.slice(at + 1) || 'latest' };
  return { name: text, version: 'latest' };
}

function entryOf(registry: string, item: unknown): RegistryEntry | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const record = item as { server?: unknown; _meta?: Record<string, unknown> };
  const server = record.server as { name?: unknown; version?: unknown } | undefined;
  const official = record._meta?.[OFFICIAL_META] as OfficialMeta | undefined;
  const name = typeof server?.name === 'string' ? server.name : '(unnamed)';
  const version = typeof server?.version === 'string' ? server.version : '?';
  const checked = validateServerJson(server);
  return checked.ok
    ? { registry, name, version, official, valid: true, server: checked.server }
    : { registry, name, version, official, valid: false, reason: checked.reason };
}

function entriesOf(registry: string, body: unknown): { entries: RegistryEntry[]; nextCursor?: string } {
  const list = body as { servers?: unknown; metadata?: { nextCursor?: unknown } };
  if (!Array.isArray(list?.servers)) throw new Error(`${registry}: the answer has no "servers" list`);
  const entries = list.servers.map((item) => entryOf(registry, item)).filter((e) => e !== undefined);
  const next = list.metadata?.nextCursor;
  return typeof next === 'string' && next !== '' ? { entries, nextCursor: next } : { entries };
}

/** Our cursor over several registries: each registry's own opaque cursor, by index. */
function encodeCursor(cursors: Record<number, string>): string | undefined {
  return Object.keys(cursors).length === 0 ? undefined : Buffer.from(JSON.stringify(cursors)).toString('base64url');
}

function decodeCursor(cursor: string): Record<number, string> {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<number, string>;
  } catch {
    throw new Error(`not a cursor from this client: "${cursor}"`);
  }
}

function freshest(answers: CachedJson[]): Freshness {
  const offline = answers.find((a) => a.offline);
  if (offline)
    return { offline: true, fetchedAt: offline.fetchedAt, ...(offline.reason ? { reason: offline.reason } : {}) };
  return { offline: false, fetchedAt: Math.min(...answers.map((a) => a.fetchedAt)) };
}

/** Lists, searches and reads server.json entries from one or more registries. */
export class RegistryClient {
  constructor(private readonly options: RegistryClientOptions) {
    if (options.urls.length === 0) throw new Error('no registry URL configured (registry.url)');
  }

  private base(index: number): string {
    return this.options.urls[index]!.replace(/\/+$/, '');
  }

  /**
   * One page of the servers whose name matches `text` (all servers when empty),
   * latest versions only, across every registry.
   */
  async search(
    text: string,
    options: { cursor?: string; limit?: number; signal?: AbortSignal } = {},
  ): Promise<SearchPage> {
    const cursors = options.cursor ? decodeCursor(options.cursor) : undefined;
    const indexes = cursors ? Object.keys(cursors).map(Number) : this.options.urls.map((_, i) => i);
    const results = await Promise.allSettled(
      indexes.map(async (index) => {
        const url = new URL(`${this.base(index)}${API}/servers`);
        if (text.trim() !== '') url.searchParams.set('search', text.trim());
        url.searchParams.set('version', 'latest');
        url.searchParams.set('limit', String(options.limit ?? 30));
        const cursor = cursors?.[index];
        if (cursor) url.searchParams.set('cursor', cursor);
        const answer = await this.options.cache.getJson(url.href, options.signal);
        return { index, answer, ...entriesOf(this.base(index), answer.body) };
      }),
    );
    const page: SearchPage = { entries: [], failures: [], offline: false, fetchedAt: Date.now() };
    const next: Record<number, string> = {};
    const seen = new Set<string>();
    const answers: CachedJson[] = [];
    results.forEach((result, i) => {
      if (result.status === 'rejected') {
        page.failures.push({ registry: this.base(indexes[i]!), message: (result.reason as Error).message });
        return;
      }
      answers.push(result.value.answer);
      if (result.value.nextCursor) next[result.value.index] = result.value.nextCursor;
      for (const entry of result.value.entries) {
        if (seen.has(entry.name)) continue;
        seen.add(entry.name);
        page.entries.push(entry);
      }
    });
    if (answers.length === 0 && page.failures.length > 0) {
      throw new Error(page.failures.map((f) => f.message).join('; '));
    }
    Object.assign(page, answers.length > 0 ? freshest(answers) : {});
    const nextCursor = encodeCursor(next);
    if (nextCursor) page.nextCursor = nextCursor;
    return page;
  }

  /**
   * One version of a server (`latest` by default), from the first registry
   * that has it. Rejects naming the registries asked when none has it.
   */
  async get(
    name: string,
    version = 'latest',
    signal?: AbortSignal,
  ): Promise<{ entry: RegistryEntry; freshness: Freshness }> {
    const misses: string[] = [];
    const failures: string[] = [];
    for (let index = 0; index < this.options.urls.length; index++) {
      const url = `${this.base(index)}${API}/servers/${encodeURIComponent(name)}/versions/${encodeURIComponent(version)}`;
      try {
        const answer = await this.options.cache.getJson(url, signal);
        const entry = entryOf(this.base(index), answer.body);
        if (!entry) throw new Error(`${url}: the answer is not a server entry`);
        return { entry, freshness: freshest([answer]) };
      } catch (error) {
        if (signal?.aborted) throw error;
        if (error instanceof HttpStatusError && error.status === 404) misses.push(this.base(index));
        else failures.push((error as Error).message);
      }
    }
    const what = `${name}${version === 'latest' ? '' : `@${version}`}`;
    if (failures.length > 0) {
      throw new Error(`${what}: ${[...failures, ...misses.map((m) => `not in ${m}`)].join('; ')}`);
    }
    throw new HttpStatusError(404, `${what} is not in ${misses.join(' or ')}`);
  }

  /** Every version of a server (newest first, as the registry orders them), from the first registry that has it. */
  async versions(name: string, signal?: AbortSignal): Promise<RegistryEntry[]> {
    for (let index = 0; index < this.options.urls.length; index++) {
      const url = `${this.base(index)}${API}/servers/${encodeURIComponent(name)}/versions`;
      try {
        const answer = await this.options.cache.getJson(url, signal);
        return entriesOf(this.base(index), answer.body).entries;
      } catch (error) {
        if (error instanceof HttpStatusError && error.status === 404) continue;
        throw error;
      }
    }
    throw new HttpStatusError(404, `${name} is not in ${this.options.urls.join(' or ')}`);
  }
}
