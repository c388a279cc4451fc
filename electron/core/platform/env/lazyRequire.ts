/**
 * A dependency loaded on its first use instead of at start. Every module of
 * ours is imported when `serve` starts, so a package only some actions need
 * (ajv for registry entries and bundle manifests, yauzl for bundles, the
 * stopword lists for search) would otherwise be compiled on every start:
 * together they were a fifth of the time Node took to load the program.
 * For CommonJS packages (a synchronous `require`, so callers stay synchronous).
 */
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/** `specifier`'s exports, required on the first call of the returned function. */
export function lazyRequire<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(specifier) as T);
}
