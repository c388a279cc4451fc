/**
 * Catalog: every tool, prompt, resource and template, plus the browsing state
 * (search text, kind filter, selection) so it survives switching screens.
 */
import type { CoreClient } from '../../../../shared/contract.js';
import type { CatalogEntry, CatalogKind } from '../../../../shared/model/views.js';
import { fetchRemote, idle, type Remote } from '../remote.js';
import type { SliceCreator } from '../types.js';

/** A stable key for one catalog entry. */
export function catalogKey(entry: Pick<CatalogEntry, 'kind' | 'exposed'>): string {
  return `${entry.kind}:${entry.exposed}`;
}

/** Catalog state and actions. */
export interface CatalogSlice {
  catalog: Remote<CatalogEntry[]>;
  catalogQuery: string;
  catalogKind: CatalogKind | 'all';
  selectedCatalogKey: string | undefined;
  fetchCatalog(): Promise<void>;
  setCatalogQuery(query: string): void;
  setCatalogKind(kind: CatalogKind | 'all'): void;
  selectCatalogEntry(key: string | undefined): void;
}

/** Creates the catalog slice. */
export function createCatalogSlice(client: CoreClient): SliceCreator<CatalogSlice> {
  return (set, get) => ({
    catalog: idle(),
    catalogQuery: '',
    catalogKind: 'all',
    selectedCatalogKey: undefined,
    fetchCatalog: () =>
      fetchRemote(
        () => get().catalog,
        (catalog) => set({ catalog }),
        () => client.call('catalog.list'),
      ),
    setCatalogQuery: (catalogQuery) => set({ catalogQuery }),
    setCatalogKind: (catalogKind) => set({ catalogKind }),
    selectCatalogEntry: (selectedCatalogKey) => set({ selectedCatalogKey }),
  });
}
