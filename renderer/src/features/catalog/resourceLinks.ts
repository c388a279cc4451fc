/**
 * Following a `resource_link` from a result into the catalog: the listed
 * resource with that URI, else the one template of the same catalog that the
 * URI is an instance of (its simple `{name}` variables read back from the URI).
 */
import { useCallback } from 'react';
import type { CatalogEntry } from '../../../../shared/model/views.js';
import { useAppStore } from '../../store/context.js';
import { catalogKey } from '../../store/slices/catalogSlice.js';

const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

/** A template as a pattern over URIs: each `{...}` expression matches one or more characters. */
function templatePattern(template: string): RegExp {
  const parts = template.split(/(\{[^}]*\})/);
  return new RegExp(`^${parts.map((part, i) => (i % 2 === 1 ? '(.+?)' : escape(part))).join('')}$`);
}

/** The variable values of `uri` as an instance of `template` (simple `{name}` expressions only). */
export function templateValues(template: string, uri: string): Record<string, string> {
  const match = templatePattern(template).exec(uri);
  const names = [...template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1] ?? '');
  const values: Record<string, string> = {};
  names.forEach((name, i) => {
    const value = match?.[i + 1];
    if (value !== undefined && /^[A-Za-z0-9_]+$/.test(name)) values[name] = decodeURIComponent(value);
  });
  return values;
}

/** The catalog entry a link to `uri` opens, if any. */
export function entryForUri(entries: readonly CatalogEntry[], uri: string): CatalogEntry | undefined {
  return (
    entries.find((entry) => entry.kind === 'resource' && entry.exposed === uri) ??
    entries.find((entry) => entry.kind === 'resourceTemplate' && templatePattern(entry.exposed).test(uri))
  );
}

/** Opens the catalog entry of a linked resource (clearing search and kind filters so it shows); false when none. */
export function useOpenResourceLink(): (uri: string) => boolean {
  const entries = useAppStore((s) => s.catalog.data);
  const select = useAppStore((s) => s.selectCatalogEntry);
  const setQuery = useAppStore((s) => s.setCatalogQuery);
  const setKind = useAppStore((s) => s.setCatalogKind);
  const setScreen = useAppStore((s) => s.setScreen);
  const setLinked = useAppStore((s) => s.setLinkedResource);
  return useCallback(
    (uri: string) => {
      const entry = entryForUri(entries ?? [], uri);
      if (!entry) return false;
      const key = catalogKey(entry);
      setQuery('');
      setKind('all');
      setLinked({ key, uri });
      select(key);
      setScreen('catalog');
      return true;
    },
    [entries, select, setQuery, setKind, setScreen, setLinked],
  );
}
