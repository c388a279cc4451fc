/**
 * The catalog as a virtualized, keyboard-navigable listbox grouped by backend.
 * Only the visible rows are in the DOM, so thousands of items stay smooth.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useId, useMemo, useRef } from 'react';
import type { CatalogEntry, ItemAccessView } from '../../../../shared/model/views.js';
import { Badge } from '../../components/HealthBadge.js';
import { catalogKey } from '../../store/slices/catalogSlice.js';
import { approxTokens } from '../clients/ExposureCell.js';
import { clientGets, stateLook } from '../authorization/ruleChoice.js';
import { groupRows, KIND_LABELS, type CatalogRow } from './filterCatalog.js';

/** A list row with its entry's key computed once per list (not per row per render). */
type KeyedRow = Extract<CatalogRow, { type: 'group' }> | { type: 'entry'; entry: CatalogEntry; key: string };

/** The list of `entries`; `onSelect` gets the chosen entry's key. */
export function CatalogList({
  entries,
  selectedKey,
  onSelect,
  onOpen = onSelect,
  access,
  viewer = 'the main token',
}: {
  entries: CatalogEntry[];
  selectedKey: string | undefined;
  onSelect: (key: string) => void;
  /** A click or Enter on an item: select it and bring its detail into view. */
  onOpen?: (key: string) => void;
  /** What the chosen profile gets of each entry, by key (absent until loaded). */
  access?: ReadonlyMap<string, ItemAccessView>;
  /** That profile's name. */
  viewer?: string;
}) {
  const rows = useMemo<KeyedRow[]>(
    () => groupRows(entries).map((row) => (row.type === 'entry' ? { ...row, key: catalogKey(row.entry) } : row)),
    [entries],
  );
  // Option ids by row position: unique whatever the names (a sanitized name can collide).
  const listId = useId();
  const optionId = (rowIndex: number) => `${listId}-option-${rowIndex}`;
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
  const selectedRow = useMemo(
    () => rows.findIndex((row) => row.type === 'entry' && row.key === selectedKey),
    [rows, selectedKey],
  );
  const virtualItems = virtualizer.getVirtualItems();
  // Only a rendered option can be the active descendant (the list is virtualized).
  const activeRendered = selectedRow >= 0 && virtualItems.some((item) => item.index === selectedRow);

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
    onSelect(row.key);
    virtualizer.scrollToIndex(rowIndex, { align: 'auto' });
  };

  return (
    <div
      ref={parentRef}
      className="catalog-list"
      role="listbox"
      aria-label="Catalog items"
      tabIndex={0}
      aria-activedescendant={activeRendered ? optionId(selectedRow) : undefined}
      onKeyDown={(event) => {
        const steps: Record<string, number | 'first' | 'last'> = {
          ArrowDown: 1,
          ArrowUp: -1,
          PageDown: 10,
          PageUp: -10,
          Home: 'first',
          End: 'last',
        };
        if (event.key === 'Enter' && selectedKey !== undefined) {
          event.preventDefault();
          onOpen(selectedKey);
          return;
        }
        const step = steps[event.key];
        if (step === undefined) return;
        event.preventDefault();
        move(step);
      }}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualItems.map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          const position = { top: item.start, height: item.size };
          if (row.type === 'group')
            return (
              <div key={item.key} className="catalog-group" role="presentation" style={position}>
                {row.backendId} · {row.count}
              </div>
            );
          const { key } = row;
          const got = access?.get(key);
          const look = got && got.state !== 'allowed' ? stateLook(got.state, viewer) : undefined;
          // The option holds only the item's name, so its visible text is its accessible name
          // (WCAG 2.5.3); kind, title and what the profile gets sit beside it in the row and describe it.
          return (
            <div
              key={item.key}
              role="presentation"
              className={got && !clientGets(got.state) ? 'catalog-item withheld' : 'catalog-item'}
              data-selected={key === selectedKey}
              style={position}
              onClick={() => onOpen(key)}
            >
              <div className="name">
                <span className="chip" id={`${optionId(item.index)}-kind`} aria-hidden="true">
                  {KIND_LABELS[row.entry.kind]}
                </span>
                <span
                  id={optionId(item.index)}
                  role="option"
                  aria-selected={key === selectedKey}
                  aria-label={row.entry.exposed}
                  aria-description={look?.detail}
                  className={got && !clientGets(got.state) ? 'withheld' : undefined}
                  aria-describedby={`${optionId(item.index)}-kind ${optionId(item.index)}-desc`}
                >
                  {row.entry.exposed}
                </span>
                {look && (
                  <Badge tone={look.tone} title={look.detail}>
                    {look.label}
                  </Badge>
                )}
                {row.entry.overridden && (
                  <Badge tone="info" title="Its server's override changes what the model sees of it">
                    overridden
                  </Badge>
                )}
                {got && clientGets(got.state) && !got.listed && got.kind === 'tools' && (
                  <Badge tone="info" title={`Not in ${viewer}'s tools/list: search_tools finds it`}>
                    via search
                  </Badge>
                )}
                {got?.tokens !== undefined && (
                  <span className="tokens small muted" title="Tokens of its definition in tools/list">
                    {approxTokens(got.tokens)} tok
                  </span>
                )}
              </div>
              <div className="desc" id={`${optionId(item.index)}-desc`}>
                {row.entry.title ?? row.entry.description ?? ''}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
