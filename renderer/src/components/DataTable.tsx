/**
 * The one table of the UI (Clients, Profiles, Request log, Tasks, config
 * backups, the self-service page, a tool's input schema): its markup, its
 * keyboard behaviour and its accessibility are written here once.
 *
 * - Headers are real column headers (`scope="col"`); an actions column has a
 *   header said to screen readers only; a key/value table names its rows with
 *   `scope="row"` headers.
 * - The rows are one tab stop: the arrow keys, Home and End move between them
 *   and Enter opens the focused row where the screen has something to open.
 * - Narrow windows (styles/table.css, at 760 px and below) stack each row as a
 *   card: every cell carries its column's header (`data-label`), shown beside
 *   the value, so no header is squeezed into a column too thin for its words.
 */
import { useState, type KeyboardEvent, type ReactNode } from 'react';

/** One column: its header and how a row's cell shows. */
export interface Column<T> {
  header: string;
  /** The header is for screen readers only (an actions column). */
  hiddenHeader?: boolean;
  /** This column names its row (a key/value table): a `th scope="row"`. */
  rowHeader?: boolean;
  className?: string;
  cell(row: T, index: number): ReactNode;
}

/** What a {@link DataTable} shows. */
export interface DataTableProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey(row: T, index: number): string;
  /** A row's accessible name, where the screen has one (e.g. "Task echo of cursor"). */
  rowLabel?(row: T): string;
  /** Whether a row is the one shown in detail (`aria-selected`). */
  isSelected?(row: T): boolean;
  /** Enter on a focused row opens it (e.g. a call's detail). */
  onOpen?(row: T): void;
  /** Whether the column headers are shown or only said (a key/value table). */
  headers?: 'shown' | 'hidden';
}

const MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowDown: (index, count) => Math.min(count - 1, index + 1),
  ArrowUp: (index) => Math.max(0, index - 1),
  Home: () => 0,
  End: (_index, count) => count - 1,
};

/** The table of `rows` by `columns`. */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  rowLabel,
  isSelected,
  onOpen,
  headers = 'shown',
}: DataTableProps<T>) {
  /** The row that takes the table's one tab stop (the last one focused). */
  const [current, setCurrent] = useState(0);
  const focusable = Math.min(current, Math.max(0, rows.length - 1));

  const onKeyDown = (event: KeyboardEvent<HTMLTableSectionElement>) => {
    const rowElement = event.target as HTMLElement;
    if (rowElement.tagName !== 'TR') return; // keys inside a cell's controls are theirs
    const index = Number(rowElement.dataset['index']);
    const move = MOVES[event.key];
    if (move) {
      event.preventDefault();
      const next = move(index, rows.length);
      setCurrent(next);
      (rowElement.parentElement?.children[next] as HTMLElement | undefined)?.focus();
    } else if (event.key === 'Enter' && onOpen) {
      event.preventDefault();
      onOpen(rows[index] as T);
    }
  };

  return (
    <table className="table data-table" aria-label={label}>
      <thead className={headers === 'hidden' ? 'visually-hidden' : undefined}>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col" className={column.className}>
              {column.hiddenHeader ? <span className="visually-hidden">{column.header}</span> : column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody onKeyDown={onKeyDown}>
        {rows.map((row, index) => (
          <tr
            key={rowKey(row, index)}
            data-index={index}
            tabIndex={index === focusable ? 0 : -1}
            onFocus={(event) => {
              if (event.target === event.currentTarget) setCurrent(index);
            }}
            aria-label={rowLabel?.(row)}
            aria-selected={isSelected?.(row) || undefined}
          >
            {columns.map((column) => {
              const Cell = column.rowHeader ? 'th' : 'td';
              return (
                <Cell
                  key={column.header}
                  scope={column.rowHeader ? 'row' : undefined}
                  className={column.className}
                  data-label={column.hiddenHeader || headers === 'hidden' ? undefined : column.header}
                >
                  {column.cell(row, index)}
                </Cell>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
