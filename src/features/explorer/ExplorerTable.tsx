import { Column, type CellRenderer, Regions, Table } from '@blueprintjs/table';
import { type ReactElement, memo, useEffect, useRef } from 'react';
import { type ExplorerConfig } from '../../contracts/reports';
import { columnsReordered } from './explorerEdits';
import { type GridColumn } from './gridColumns';
import { BLOCK_SIZE } from './gridRows';

interface ExplorerTableProps {
  /** The grid's shape (grouping, pivot, values, sort, filters, range): a new one starts at the top row. */
  shape: string;
  numRows: number;
  frozen: number;
  widths: number[];
  canEdit: boolean;
  columns: GridColumn[];
  cells: { renderers: CellRenderer[]; dependencies: unknown[] };
  headers: ((index: number) => ReactElement)[];
  onResize(columnId: string, width: number): void;
  onEdit(edit: (config: ExplorerConfig) => ExplorerConfig): void;
  /** The rows in view, widened to whole blocks of the engine's answers. */
  onVisibleBlocks(first: number, last: number): void;
}

/**
 * The grid's Blueprint table. Memoised: a block of rows arriving changes none of its props (the cells read the rows
 * from `GridRowsProvider`), so the table and its quadrants are not rendered again for it; only a change of the
 * columns, their widths or the row count reaches them.
 */
export const ExplorerTable = memo(function ExplorerTable(props: ExplorerTableProps) {
  const { columns, canEdit, onEdit, onVisibleBlocks } = props;
  const table = useRef<Table>(null);
  // The table stays mounted while a new shape loads, scrolled where the user left it; its rows start over.
  useEffect(() => table.current?.scrollToRegion(Regions.row(0)), [props.shape]);
  return (
    <Table
      ref={table}
      numRows={props.numRows}
      numFrozenColumns={props.frozen}
      columnWidths={props.widths}
      enableColumnResizing={canEdit}
      enableColumnReordering={canEdit}
      enableRowHeader={false}
      cellRendererDependencies={props.cells.dependencies}
      onColumnWidthChanged={(index, width) => {
        const column = columns[index];
        if (column) props.onResize(column.id, width);
      }}
      onColumnsReordered={(oldIndex, newIndex, length) => {
        const ids = columns.map((column) => column.id);
        const moved = ids.splice(oldIndex, length);
        ids.splice(newIndex, 0, ...moved);
        onEdit((current) => columnsReordered(current, ids));
      }}
      onVisibleCellsChange={(rows) => {
        // Whole blocks, so scrolling within the loaded rows asks for nothing new.
        const first = Math.floor(Math.max(0, rows.rowIndexStart) / BLOCK_SIZE) * BLOCK_SIZE;
        const last = (Math.floor(Math.max(0, rows.rowIndexEnd) / BLOCK_SIZE) + 1) * BLOCK_SIZE - 1;
        // The table reports this while it renders: the update waits until it is done.
        queueMicrotask(() => onVisibleBlocks(first, last));
      }}
    >
      {columns.map((column, index) => (
        <Column
          key={column.id}
          id={column.id}
          name={column.name}
          cellRenderer={props.cells.renderers[index]}
          columnHeaderCellRenderer={props.headers[index]}
        />
      ))}
    </Table>
  );
});
