/**
 * The catalog as a virtualized, keyboard-navigable listbox grouped by backend.
 * Only the visible rows are in the DOM, so thousands of items stay smooth.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import type { CatalogEntry } from '../../../../shared/model/views.js';
import { catalogKey } from '../../store/slices/catalogSlice.js';
import { groupRows, KIND_LABELS } from './filterCatalog.js';

const optionId = (key: string) => `catalog-option-${key.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/** The list of `entries`; `onSelect` gets the chosen entry's key. */
export function CatalogList({
  entries,
  selectedKey,
  onSelect,
}: {
  entries: CatalogEntry[];
  selectedKey: string | undefined;
  onSelect: (key: string) => void;
}) {
  const rows = useMemo(() => groupRows(entries), [entries]);
  const parentRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: (index) => (rows[index]?.type === 'group' ? 32 : 50),
    overscan: 12,
    // Rendered before the first measurement (and where there is no layout, as in tests).
    initialRect: { width: 400, height: 600 },
  });
  const entryIndexes = useMemo(() => rows.flatMap((row, index) => (row.type === 'entry' ? [index] : [])), [rows]);
  const selectedRow = rows.findIndex((row) => row.type === 'entry' && catalogKey(row.entry) === selectedKey);

  const move = (step: number | 'first' | 'last') => {
    if (entryIndexes.length === 0) return;
    const at = entryIndexes.indexOf(selectedRow);
    const next =
      step === 'first'
        ? 0
        : step === 'last'
          ? entryIndexes.length - 1
          : Math.max(0, Math.min(entryIndexes.length - 1, at < 0 ? 0 : at + step));
    const rowIndex = entryIndexes[next];
    const row = rowIndex === undefined ? undefined : rows[rowIndex];
    if (rowIndex === undefined || row?.type !== 'entry') return;
    onSelect(catalogKey(row.entry));
    virtualizer.scrollToIndex(rowIndex, { align: 'auto' });
  };

  return (
    <div
      ref={parentRef}
      className="catalog-list"
      role="listbox"
      aria-label="Catalog items"
      tabIndex={0}
      aria-activedescendant={selectedKey ? optionId(selectedKey) : undefined}
      onKeyDown={(event) => {
        const steps: Record<string, number | 'first' | 'last'> = {
          ArrowDown: 1,
          ArrowUp: -1,
          PageDown: 10,
          PageUp: -10,
          Home: 'first',
          End: 'last',
        };
        const step = steps[event.key];
        if (step === undefined) return;
        event.preventDefault();
        move(step);
      }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          const position = { top: item.start, height: item.size };
          if (row.type === 'group')
            return (
              <div key={item.key} className="catalog-group" role="presentation" style={position}>
                {row.backendId} · {row.count}
              </div>
            );
          const key = catalogKey(row.entry);
          return (
            <div
              key={item.key}
              id={optionId(key)}
              role="option"
              aria-selected={key === selectedKey}
              aria-label={row.entry.exposed}
              className="catalog-item"
              style={position}
              onClick={() => onSelect(key)}
            >
              <div className="name">
                <span className="chip">{KIND_LABELS[row.entry.kind]}</span> {row.entry.exposed}
              </div>
              <div className="desc">{row.entry.title ?? row.entry.description ?? ''}</div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
