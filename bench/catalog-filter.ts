// Catalog search in the UI (`npm run bench`): time per keystroke while typing a query into
// the filter over 1000 and 5000 catalog items, and the one-off indexing per catalog change.
// Target (issue 6): each keystroke under 50 ms with 1000 items.
import type { CatalogEntry, CatalogKind } from '../shared/model/views.js';
import { filterCatalog, indexCatalog } from '../renderer/src/features/catalog/filterCatalog.js';

const KINDS: CatalogKind[] = ['tool', 'prompt', 'resource', 'resourceTemplate'];
const TARGET_MS = 50;

function makeCatalog(size: number): CatalogEntry[] {
  return Array.from({ length: size }, (_, i) => ({
    kind: KINDS[i % 4] as CatalogKind,
    backendId: `server${i % 10}`,
    exposed: `server${i % 10}__item_${i}`,
    original: `item_${i}`,
    description:
      i % 7 === 0
        ? `Reads the weather forecast for city ${i}, with hourly detail and alerts`
        : `Does task number ${i} quickly and reports what changed`,
  }));
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const typed = 'weather forecast city 14';
const rows: string[] = [];
let worstAt1000 = 0;
for (const size of [1000, 5000]) {
  const entries = makeCatalog(size);
  const indexStart = performance.now();
  const indexed = indexCatalog(entries);
  const indexMs = performance.now() - indexStart;
  const timings: number[] = [];
  for (let round = 0; round < 20; round++) {
    for (let i = 1; i <= typed.length; i++) {
      const start = performance.now();
      filterCatalog(indexed, typed.slice(0, i));
      timings.push(performance.now() - start);
    }
  }
  const max = Math.max(...timings);
  if (size === 1000) worstAt1000 = max;
  rows.push(
    `${String(size).padStart(6)}  ${percentile(timings, 50).toFixed(3).padStart(8)}  ${percentile(timings, 99)
      .toFixed(3)
      .padStart(8)}  ${max.toFixed(3).padStart(8)}  ${indexMs.toFixed(2).padStart(9)}`,
  );
}
console.log('\n== catalog filter per keystroke (ms) ==');
console.log(' items       p50       p99       max   index ms');
for (const row of rows) console.log(row);
console.log(
  `${worstAt1000 < TARGET_MS ? 'MET    ' : 'NOT MET'}  catalog filter under ${TARGET_MS} ms per keystroke with 1000 items (max ${worstAt1000.toFixed(2)} ms)`,
);
