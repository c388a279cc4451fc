/**
 * GET with an HTTP cache on disk (RFC 9111 validators): each answer is kept in
 * the state dir with its ETag / Last-Modified, revalidated with
 * If-None-Match / If-Modified-Since (a 304 serves the kept body), and served
 * from the cache, marked offline, when the registry cannot be reached.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Freshness } from './registryTypes.js';

/** How long one registry request may take by default. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

interface CachedAnswer {
  url: string;
  etag?: string;
  lastModified?: string;
  fetchedAt: number;
  body: unknown;
}

/** A fetched JSON body and where it came from. */
export interface CachedJson extends Freshness {
  body: unknown;
}

/** A request the registry answered with an error status (not a network failure: never served from cache). */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpStatusError';
  }
}

/** Options of {@link HttpCache}. */
export interface HttpCacheOptions {
  /** Directory of the cache files (created when first written). */
  directory: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
}

/** A JSON GET cache in one directory. */
export class HttpCache {
  private readonly fetchImpl: typeof fetch;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly options: HttpCacheOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.now = options.now ?? Date.now;
  }

  private fileFor(url: string): string {
    return join(this.options.directory, `${createHash('sha256').update(url).digest('hex').slice(0, 32)}.json`);
  }

  private async read(url: string): Promise<CachedAnswer | undefined> {
    try {
      const kept = JSON.parse(await readFile(this.fileFor(url), 'utf8')) as CachedAnswer;
      return kept.url === url ? kept : undefined;
    } catch {
      return undefined; // missing or unreadable: as if not cached
    }
  }

  private async write(answer: CachedAnswer): Promise<void> {
    await mkdir(this.options.directory, { recursive: true });
    const file = this.fileFor(answer.url);
    const temp = `${file}.${randomBytes(4).toString('hex')}.tmp`;
    await writeFile(temp, JSON.stringify(answer), { mode: 0o600 });
    await rename(temp, file);
  }

  /**
   * GETs `url` as JSON. A 404 or other error status rejects with
   * {@link HttpStatusError}; a network failure or timeout falls back to the
   * cached answer (offline), and rejects only when there is none.
   */
  async getJson(url: string, signal?: AbortSignal): Promise<CachedJson> {
    const kept = await this.read(url);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (kept?.etag) headers['if-none-match'] = kept.etag;
    if (kept?.lastModified) headers['if-modified-since'] = kept.lastModified;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        headers,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      const reason = timeout.aborted
        ? `no answer within ${this.timeoutMs} ms`
        : ((error as Error & { cause?: Error }).cause?.message ?? (error as Error).message);
      if (kept) return { body: kept.body, offline: true, fetchedAt: kept.fetchedAt, reason };
      throw new Error(`cannot reach ${new URL(url).origin}: ${reason}`);
    }
    if (response.status === 304 && kept) {
      await response.body?.cancel();
      const refreshed = { ...kept, fetchedAt: this.now() };
      await this.write(refreshed);
      return { body: kept.body, offline: false, fetchedAt: refreshed.fetchedAt };
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      const detail = /^\s*\{/.test(text) ? ((JSON.parse(text) as { error?: string }).error ?? '') : '';
      throw new HttpStatusError(response.status, `${url}: HTTP ${response.status}${detail ? ` (${detail})` : ''}`);
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (error) {
      throw new Error(`${url}: the answer is not JSON (${(error as Error).message})`);
    }
    const answer: CachedAnswer = { url, fetchedAt: this.now(), body };
    const etag = response.headers.get('etag');
    const lastModified = response.headers.get('last-modified');
    if (etag) answer.etag = etag;
    if (lastModified) answer.lastModified = lastModified;
    await this.write(answer);
    return { body, offline: false, fetchedAt: answer.fetchedAt };
  }
}

/** "3 h ago", "5 min ago", "just now": how old an offline answer is. */
export function ageOf(fetchedAt: number, now: number = Date.now()): string {
  const minutes = Math.floor((now - fetchedAt) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}
