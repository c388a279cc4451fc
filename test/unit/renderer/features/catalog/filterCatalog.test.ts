/**
 * Catalog search: what matches, grouping and counts. (Its speed over 1000 and
 * 5000 items is measured by `npm run bench`, bench/catalog-filter.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { CatalogEntry, CatalogKind } from '../../../../../shared/model/views.js';
import {
  countByKind,
  filterCatalog,
  groupRows,
  indexCatalog,
} from '../../../../../renderer/src/features/catalog/filterCatalog.js';

const KINDS: CatalogKind[] = ['tool', 'prompt', 'resource', 'resourceTemplate'];

function makeCatalog(size: number): CatalogEntry[] {
  return Array.from({ length: size }, (_, i) => ({
    kind: KINDS[i % 4] as CatalogKind,
    backendId: `server${i % 10}`,
    exposed: `server${i % 10}_item_${i}`,
    original: `item_${i}`,
    description: i % 7 === 0 ? `Reads the weather forecast for city ${i}` : `Does task number ${i} quickly`,
  }));
}

describe('catalog filtering', () => {
  it('matches every word in names and descriptions, case-insensitively, and by kind', () => {
    const indexed = indexCatalog(makeCatalog(100));
    expect(filterCatalog(indexed, 'WEATHER').length).toBe(15);
    expect(filterCatalog(indexed, 'weather city 14').map((e) => e.original)).toEqual(['item_14']);
    expect(filterCatalog(indexed, 'server3_item_3').map((e) => e.exposed)).toEqual(
      expect.arrayContaining(['server3_item_3', 'server3_item_33']),
    );
    expect(filterCatalog(indexed, '', 'prompt').every((e) => e.kind === 'prompt')).toBe(true);
    expect(filterCatalog(indexed, '').length).toBe(100);
  });

  it('groups rows by backend with counts, and counts by kind', () => {
    const entries = makeCatalog(20);
    const rows = groupRows(entries);
    expect(rows.filter((r) => r.type === 'group')).toHaveLength(10);
    expect(rows[0]).toEqual({ type: 'group', backendId: 'server0', count: 2 });
    expect(countByKind(entries)).toEqual({ all: 20, tool: 5, prompt: 5, resource: 5, resourceTemplate: 5, skill: 0 });
  });
});
