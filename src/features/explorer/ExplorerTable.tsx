import { Column, type CellRenderer, Table } from '@blueprintjs/table';
import { type ReactElement, memo } from 'react';
import { type ExplorerConfig } from '../../contracts/reports';
import { columnsReordered } from './explorerEdits';
import { type GridColumn } from './gridColumns';
import { BLOCK_SIZE } from './gridRows';

interface ExplorerTableProps {
  numRows: number;
  frozen: number;
  widths: number[];
  canEdit: boolean;
  columns: GridColumn[];
  cells: { renderers: CellRenderer[]; dependencies: unknown[] };
  headers: ((index: number) => ReactElement)[];
  onResize(index: number, width: number): void;
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
  return (
    <Table
      numRows={props.numRows}
      numFrozenColumns={props.frozen}
      columnWidths={props.widths}
      enableColumnResizing={canEdit}
      enableColumnReordering={canEdit}
      enableRowHeader={false}
      cellRendererDependencies={props.cells.dependencies}
      onColumnWidthChanged={props.onResize}
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
