// One tab stop per table, arrow keys inside: every value that opens its cells
// took a Tab of its own, so a run's panel had over two hundred tab stops. Now Tab enters a table
// at one value (the last one used there) and leaves it at the next; the arrows, Home and End move
// between its values, as in a grid. A table only screen readers see keeps its stop out of the tab
// order (dom.ts setTabbable keeps what it would be in `data-tabindex-shown`).

/** The values of a table a key can reach: those that open their cells. */
const stopCells = 'td[data-cells]';

/** The value that was the stop of each table (by its id), so a redraw keeps the reader's place. */
const stops = new Map<string, number>();

function setStop(cell: HTMLElement, on: boolean): void {
  const value = on ? '0' : '-1';
  // hidden for now (setTabbable): what it gets once shown
  if (cell.dataset.tabindexShown !== undefined) cell.dataset.tabindexShown = value;
  else cell.tabIndex = on ? 0 : -1;
}

function cellsOf(table: HTMLTableElement): HTMLElement[] {
  return Array.from(table.querySelectorAll<HTMLElement>(stopCells));
}

/** Gives every table under `root` one tab stop among its values; call after each render. */
export function oneTabStopPerTable(root: ParentNode): void {
  for (const table of Array.from(root.querySelectorAll<HTMLTableElement>('table'))) {
    const cells = cellsOf(table);
    if (cells.length === 0) continue;
    const remembered = table.id ? (stops.get(table.id) ?? 0) : 0;
    const stop = Math.min(remembered, cells.length - 1);
    cells.forEach((cell, index) => setStop(cell, index === stop));
  }
}

/** The value an arrow key goes to from `cell`, or undefined at the edge. */
function target(cells: readonly HTMLElement[], cell: HTMLElement, key: string): HTMLElement | undefined {
  const index = cells.indexOf(cell);
  if (key === 'Home') return cells[0];
  if (key === 'End') return cells[cells.length - 1];
  if (key === 'ArrowRight') return cells[index + 1];
  if (key === 'ArrowLeft') return cells[index - 1];
  // Up and down: the value in the nearest row that has one, in the column closest to this one.
  const row = cell.closest('tr');
  const rows = Array.from(new Set(cells.map((candidate) => candidate.closest('tr'))));
  const next = rows[rows.indexOf(row) + (key === 'ArrowDown' ? 1 : -1)];
  if (!next) return undefined;
  const column = (element: HTMLElement) => (element as HTMLTableCellElement).cellIndex;
  return cells
    .filter((candidate) => candidate.closest('tr') === next)
    .sort((a, b) => Math.abs(column(a) - column(cell)) - Math.abs(column(b) - column(cell)))[0];
}

function onKey(event: KeyboardEvent): void {
  if (
    !['ArrowRight', 'ArrowLeft', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(event.key) ||
    event.altKey ||
    event.ctrlKey ||
    event.metaKey
  )
    return;
  const cell = (event.target as Element | null)?.closest?.<HTMLElement>(stopCells);
  const table = cell?.closest('table');
  if (!cell || !table) return;
  const cells = cellsOf(table);
  const next = target(cells, cell, event.key);
  event.preventDefault();
  if (!next || next === cell) return;
  setStop(cell, false);
  setStop(next, true);
  if (table.id) stops.set(table.id, cells.indexOf(next));
  next.focus();
}

/** Listens once for the arrow keys of every table of the page. */
export function initTableKeys(): void {
  document.addEventListener('keydown', onKey);
}
