/**
 * In-memory catalog search and grouping for the virtualized list.
 *
 * The lowercase search text of every entry is computed once per catalog
 * (`indexCatalog`), so a keystroke is one `includes` per entry: a few
 * milliseconds for thousands of items.
 */
import type { CatalogEntry, CatalogKind } from '../../../../shared/model/views.js';

/** An entry with its precomputed search text. */
export interface IndexedEntry {
  entry: CatalogEntry;
  haystack: string;
}

/** Precomputes each entry's search text (names, title, description). */
export function indexCatalog(entries: readonly CatalogEntry[]): IndexedEntry[] {
  return entries.map((entry) => ({
    entry,
    haystack: [entry.exposed, entry.original, entry.title ?? '', entry.description ?? '', entry.backendId]
      .join('\n')
      .toLowerCase(),
  }));
}

/** Entries whose kind matches and whose text holds every word of `query` (case-insensitive). */
export function filterCatalog(
  indexed: readonly IndexedEntry[],
  query: string,
  kind: CatalogKind | 'all' = 'all',
): CatalogEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const out: CatalogEntry[] = [];
  for (const { entry, haystack } of indexed) {
    if (kind !== 'all' && entry.kind !== kind) continue;
    if (words.every((word) => haystack.includes(word))) out.push(entry);
  }
  return out;
}

/** Counts per kind (for the filter tabs). */
export function countByKind(entries: readonly CatalogEntry[]): Record<CatalogKind | 'all', number> {
  const counts = { all: entries.length, tool: 0, prompt: 0, resource: 0, resourceTemplate: 0, skill: 0 };
  for (const entry of entries) counts[entry.kind] += 1;
  return counts;
}

/** A row of the grouped list: a backend header or an entry. */
export type CatalogRow = { type: 'group'; backendId: string; count: number } | { type: 'entry'; entry: CatalogEntry };

/** Groups entries by backend (in first-seen order) into flat rows for virtualization. */
export function groupRows(entries: readonly CatalogEntry[]): CatalogRow[] {
  const groups = new Map<string, CatalogEntry[]>();
  for (const entry of entries) {
    const group = groups.get(entry.backendId);
    if (group) group.push(entry);
    else groups.set(entry.backendId, [entry]);
  }
  const rows: CatalogRow[] = [];
  for (const [backendId, group] of groups) {
    rows.push({ type: 'group', backendId, count: group.length });
    for (const entry of group) rows.push({ type: 'entry', entry });
  }
  return rows;
}

/** How each kind is named in the UI. */
export const KIND_LABELS: Record<CatalogKind, string> = {
  tool: 'Tool',
  prompt: 'Prompt',
  resource: 'Resource',
  resourceTemplate: 'Template',
  skill: 'Skill',
};
