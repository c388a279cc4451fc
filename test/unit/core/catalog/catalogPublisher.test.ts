/**
 * The published catalog as backends come and go, and once the core shuts
 * down: stopping every backend then leaves the catalog as it is, instead of
 * one rebuild and one list_changed per backend.
 */
import { describe, expect, it } from 'vitest';
import type { BackendCatalog } from '../../../../electron/core/backends/connection/backendConnection.js';
import { CatalogPublisher, type CatalogChange } from '../../../../electron/core/catalog/catalogPublisher.js';

const snapshots: Record<string, BackendCatalog> = {
  a: { tools: [{ name: 'one', inputSchema: { type: 'object' } }], resources: [], resourceTemplates: [], prompts: [] },
  b: { tools: [{ name: 'two', inputSchema: { type: 'object' } }], resources: [], resourceTemplates: [], prompts: [] },
};

function publisher(changes: CatalogChange[]): CatalogPublisher {
  return new CatalogPublisher(
    { prefixOf: (id) => id, snapshotOf: (id) => snapshots[id], options: () => ({ separator: '__', maxItems: 100 }) },
    (change) => changes.push(change),
  );
}

describe('CatalogPublisher', () => {
  it('takes a stopped backend out, with one change', () => {
    const changes: CatalogChange[] = [];
    const published = publisher(changes);
    published.admitAll(['a', 'b']);
    published.unpublish('a');
    expect(published.catalog.tools.map((tool) => tool.name)).toEqual(['b__two']);
    expect(changes).toHaveLength(2);
  });

  it('once closed, leaves the catalog as it is while backends stop, and tells nobody', () => {
    const changes: CatalogChange[] = [];
    const published = publisher(changes);
    published.admitAll(['a', 'b']);
    const before = published.catalog;
    published.close();
    published.unpublish('a');
    published.unpublish('b');
    expect(published.catalog).toBe(before);
    expect(changes).toHaveLength(1);
  });
});
