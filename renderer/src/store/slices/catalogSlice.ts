/**
 * Catalog: every tool, prompt, resource and template, plus the browsing state
 * (search text, kind filter, selection) so it survives switching screens; and
 * what the chosen profile ("as seen by") gets of it. A fetch that answers for
 * a profile no longer chosen is dropped.
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
    catalogProfile: '*',
    catalogAccess: idle(),
    fetchCatalogAccess() {
      const profile = get().catalogProfile;
      return fetchRemote(
        () => get().catalogAccess,
        (catalogAccess) => set({ catalogAccess }),
        () => client.call('catalog.access', { profile }),
        () => get().catalogProfile === profile,
      );
    },
    setCatalogProfile(catalogProfile) {
      set({ catalogProfile, catalogAccess: idle() });
      get().invalidate('access');
    },
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
