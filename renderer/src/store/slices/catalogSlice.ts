/**
 * Catalog: every tool, prompt, resource and template, plus the browsing state
 * (search text, kind filter, selection) so it survives switching screens.
 */
import type { CoreClient } from '../../../../shared/contract.js';
import type { CatalogEntry } from '../../../../shared/model/views.js';
import { fetchRemote, idle } from '../remote.js';
import type { CatalogSlice, SliceCreator } from '../types.js';

export type { CatalogSlice };

/** A stable key for one catalog entry. */
export function catalogKey(entry: Pick<CatalogEntry, 'kind' | 'exposed'>): string {
  return `${entry.kind}:${entry.exposed}`;
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
