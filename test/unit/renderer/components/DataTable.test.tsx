// @vitest-environment jsdom
/**
 * The one table: headers said as column headers, each cell carrying its
 * header for the narrow (card) layout, the rows one tab stop that the arrow
 * keys, Home and End move through, and Enter opening the focused row.
 */
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable, type Column } from '../../../../renderer/src/components/DataTable.js';

interface Fruit {
  name: string;
  colour: string;
}
const FRUITS: Fruit[] = [
  { name: 'apple', colour: 'red' },
  { name: 'lime', colour: 'green' },
  { name: 'plum', colour: 'purple' },
];
const COLUMNS: Column<Fruit>[] = [
  { header: 'Fruit', cell: (fruit) => fruit.name },
  { header: 'Colour', cell: (fruit) => fruit.colour },
  { header: 'Actions', hiddenHeader: true, cell: (fruit) => <button type="button">Eat {fruit.name}</button> },
];

const table = (onOpen?: (fruit: Fruit) => void) =>
  render(
    <DataTable
      label="Fruit"
      columns={COLUMNS}
      rows={FRUITS}
      rowKey={(fruit) => fruit.name}
      rowLabel={(fruit) => `Fruit ${fruit.name}`}
      onOpen={onOpen}
    />,
  );

describe('DataTable', () => {
  afterEach(cleanup);

  it('names its columns, and gives each cell its header for the card layout (none for a hidden one)', () => {
    table();
    const grid = screen.getByRole('table', { name: 'Fruit' });
    expect(
      within(grid)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Fruit', 'Colour', 'Actions']);
    expect(within(grid).getByText('Actions').className).toBe('visually-hidden');
    const cells = within(screen.getByRole('row', { name: 'Fruit lime' })).getAllByRole('cell');
    expect(cells.map((cell) => cell.getAttribute('data-label'))).toEqual(['Fruit', 'Colour', null]);
  });

  it('is one tab stop; arrows, Home and End move between rows; Enter opens the focused one', () => {
    const onOpen = vi.fn();
    table(onOpen);
    const rows = FRUITS.map((fruit) => screen.getByRole('row', { name: `Fruit ${fruit.name}` }));
    expect(rows.map((row) => row.tabIndex)).toEqual([0, -1, -1]);
    rows[0]!.focus();
    fireEvent.keyDown(rows[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rows[1]);
    fireEvent.keyDown(rows[1]!, { key: 'End' });
    expect(document.activeElement).toBe(rows[2]);
    fireEvent.keyDown(rows[2]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rows[2]);
    fireEvent.keyDown(rows[2]!, { key: 'Home' });
    expect(document.activeElement).toBe(rows[0]);
    fireEvent.keyDown(rows[0]!, { key: 'ArrowDown' });
    // The tab stop follows the focus: Tab back into the table lands on the last row focused.
    expect(rows.map((row) => row.tabIndex)).toEqual([-1, 0, -1]);
    fireEvent.keyDown(rows[1]!, { key: 'Enter' });
    expect(onOpen).toHaveBeenCalledWith(FRUITS[1]);
  });

  it("leaves the keys of a cell's own controls alone", () => {
    const onOpen = vi.fn();
    table(onOpen);
    const button = screen.getByRole('button', { name: 'Eat apple' });
    button.focus();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    fireEvent.keyDown(button, { key: 'Enter' });
    expect(document.activeElement).toBe(button);
    expect(onOpen).not.toHaveBeenCalled();
  });
});
