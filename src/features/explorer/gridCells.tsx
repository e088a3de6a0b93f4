import { Button, Classes } from '@blueprintjs/core';
import { Cell } from '@blueprintjs/table';
import { createContext, useContext, useMemo } from 'react';
import { type Locale } from '../../contracts/common';
import { type DatasetSchema } from '../../contracts/datasets';
import { type ExplorerConfig } from '../../contracts/reports';
import { formatField } from '../../engine/format';
import { baselineTone } from './baselines';
import { type GridColumn, explorerMessages } from './gridColumns';
import { type GroupPath, type RowRef, locateRow, pathKey } from './gridRows';
import { type GridSource } from './useGridSource';

/**
 * The explorer grid's cells. Blueprint's table redraws every quadrant, twice, whenever its cell renderers'
 * dependencies change; so the renderers here depend only on what the columns show (columns, locale, baselines),
 * and each cell's content reads the rows through a context. A new block of rows from the engine then re-renders
 * the cells' contents in view, not the table.
 */

/** The rows the engine has answered so far, and where a row of the table is in the group tree. */
interface GridRows {
  source: GridSource;
  locate(rowIndex: number): RowRef | undefined;
}

const GridRowsContext = createContext<GridRows | undefined>(undefined);

/** Makes `source`'s rows readable by the cells below. */
export function GridRowsProvider({ source, children }: { source: GridSource; children: React.ReactNode }) {
  const rows = useMemo<GridRows>(() => {
    const refs = new Map<number, RowRef | undefined>();
    return {
      source,
      locate: (rowIndex) => {
        if (!refs.has(rowIndex)) refs.set(rowIndex, locateRow(source.tree, rowIndex));
        return refs.get(rowIndex);
      },
    };
  }, [source]);
  return <GridRowsContext.Provider value={rows}>{children}</GridRowsContext.Provider>;
}

/** The row at `rowIndex` and where it is, once the engine has answered its block. */
function useRow(rowIndex: number) {
  const rows = useContext(GridRowsContext);
  const ref = rows?.locate(rowIndex);
  const row = rows && ref && rows.source.rowOf(ref.path, ref.index);
  return rows && ref && row ? { row, ref, expanded: rows.source.tree.expanded } : undefined;
}

/**
 * A placeholder while the row's block is on its way: Blueprint's skeleton, still (explorer.css), and the same element
 * as the answered content, so the answer changes a class and a text rather than replacing every cell in view.
 */
const LOADING = <span className={`or-explorer-loading ${Classes.SKELETON}`}>…</span>;

interface ValueProps {
  column: GridColumn;
  rowIndex: number;
  locale: Locale;
  kpiData: ExplorerConfig['kpiData'];
}

/** A value cell's content: the number in the workspace's locale, green or red against its baseline. */
function Value({ column, rowIndex, locale, kpiData }: ValueProps) {
  const found = useRow(rowIndex);
  if (!found) return LOADING;
  const value = found.row[column.id];
  const tone = baselineTone(value, column.field, kpiData);
  return (
    <span className={tone ? `or-explorer-value or-baseline-${tone}` : 'or-explorer-value'}>
      {formatField(value, column.field, locale)}
    </span>
  );
}

interface GroupProps {
  rowIndex: number;
  locale: Locale;
  rowGroups: string[];
  schema: DatasetSchema;
  toggle(path: GroupPath, index: number): void;
}

/** A group cell's content: its value indented by level, with the button that expands or collapses it. */
function Group({ rowIndex, locale, rowGroups, schema, toggle }: GroupProps) {
  const found = useRow(rowIndex);
  if (!found) return LOADING;
  const { row, ref, expanded } = found;
  const dimension = rowGroups[ref.depth];
  const value = row[dimension];
  const field = schema.fields.find((f) => f.id === dimension);
  const text = value === null || value === '' ? explorerMessages.blank : formatField(value, field, locale);
  const path: GroupPath = [...ref.path, value === null ? null : String(value)];
  const isOpen = expanded.some((group) => pathKey(group.path) === pathKey(path));
  const expandable = ref.depth < rowGroups.length - 1;
  return (
    <span className="or-explorer-group-value" style={{ paddingLeft: ref.depth * 20 }}>
      {expandable && (
        <Button
          size="small"
          variant="minimal"
          icon={isOpen ? 'chevron-down' : 'chevron-right'}
          aria-label={`${isOpen ? 'Collapse' : 'Expand'} ${text}`}
          onClick={() => toggle(path, ref.index)}
        />
      )}
      <span>{text}</span>
    </span>
  );
}

interface CellRendererInput {
  columns: GridColumn[];
  locale: Locale;
  kpiData: ExplorerConfig['kpiData'];
  rowGroups: string[];
  schema: DatasetSchema;
  toggle(path: GroupPath, index: number): void;
}

/**
 * One cell renderer per column, and the table's `cellRendererDependencies`: both change only with what the
 * columns show, never with the rows (which the cells read from `GridRowsProvider`).
 */
export function useCellRenderers({ columns, locale, kpiData, rowGroups, schema, toggle }: CellRendererInput) {
  return useMemo(() => {
    const renderers = columns.map((column) =>
      column.kind === 'group'
        ? (rowIndex: number) => (
            <Cell className="or-explorer-group">
              <Group rowIndex={rowIndex} locale={locale} rowGroups={rowGroups} schema={schema} toggle={toggle} />
            </Cell>
          )
        : (rowIndex: number) => (
            <Cell>
              <Value column={column} rowIndex={rowIndex} locale={locale} kpiData={kpiData} />
            </Cell>
          ),
    );
    return { renderers, dependencies: [columns, locale, kpiData, rowGroups, schema, toggle] };
  }, [columns, locale, kpiData, rowGroups, schema, toggle]);
}
