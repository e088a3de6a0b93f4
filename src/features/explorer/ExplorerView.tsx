import '@blueprintjs/table/lib/css/table.css';
import { Button, Callout, NonIdealState } from '@blueprintjs/core';
import { Cell, Column, ColumnHeaderCell, Table } from '@blueprintjs/table';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { datasetOfExplorer, type ExplorerConfig } from '../../contracts/reports';
import { formatField } from '../../engine/format';
import { type Cell as CellValue } from '../../store/engineApi';
import { useAppSelector } from '../../store/hooks';
import { useDashboardWorkspace } from '../dashboard/useWidgetContext';
import { localToday, resolveConfigDateRanges } from '../date-range/ranges';
import { selectFirstDayOfWeek } from '../prefs/prefsSlice';
import { debounce } from '../widgets/rich_text/richText';
import { type DataScope } from '../widgets/types';
import { useWidgetData } from '../widgets/useWidgetData';
import { fieldLabel } from '../widgets/widgetQuery';
import { WidgetError, WidgetLoading, widgetMessages } from '../widgets/WidgetStates';
import { baselineTone } from './baselines';
import { BaselinesButton } from './BaselinesDrawer';
import { ColumnMenu, type NumberFilter } from './ColumnMenu';
import { DateFieldChip } from './DateFieldDrawer';
import { DimensionFilter } from './DimensionFilter';
import {
  type GridLayout,
  columnHidden,
  columnPinned,
  columnResized,
  columnSorted,
  columnsOf,
  columnsReordered,
  dateFieldChanged,
  gridLayout,
  valueOrder,
} from './explorerEdits';
import { EXPORT_SHEET_NAME } from './exportFile';
import { ExportMenu } from './ExportMenu';
import { BLOCK_SIZE, type ExpandedGroup, type GroupPath, type RowRef, locateRow, pathKey } from './gridRows';
import { SidePanel } from './SidePanel';
import { useExplorerExport } from './useExplorerExport';
import { useFilterModel } from './useFilterModel';
import { GROUP_COLUMN, type GridSource, useGridSource, usableFilterModel } from './useGridSource';
import './explorer.css';

/** Spec 2 §9: grid column changes (resizes) are applied 32 ms after the last one. */
export const COLUMN_CHANGE_DEBOUNCE_MS = 32;
const DEFAULT_WIDTH = 150;
const GROUP_WIDTH = 240;
export const explorerMessages = {
  noRows: widgetMessages.noRows,
  clearFilters: 'Clear filters',
  nothingSelected: widgetMessages.tableNothingSelected,
  blank: '(Blank)',
} as const;

/** Spec 2 §9 allows a pivot 100 result columns: the grid says when its pivot dimension had more values. */
export const pivotCutMessage = (shown: number, total: number) =>
  `The pivot was cut to 100 columns: it shows ${shown.toLocaleString()} of ${total.toLocaleString()} values.`;

export interface ExplorerViewProps {
  config: ExplorerConfig;
  scope: DataScope;
  /** Write access (and not the public page): menus, resizing, reordering and the side panel. */
  canEdit: boolean;
  onEdit(edit: (config: ExplorerConfig) => ExplorerConfig): void;
}

export interface GridColumn {
  id: string;
  name: string;
  field?: Field;
  kind: 'group' | 'value' | 'cell';
}

/** The grid's columns: the group column, then values (or pivot cells) in the view's order, left pins first. */
export function gridColumns(schema: DatasetSchema, config: ExplorerConfig, layout: GridLayout, cells: string[]) {
  const fields = new Map(schema.fields.map((field) => [field.id, field]));
  const saved = columnsOf(config);
  const state = (id: string) => saved.find((column) => column.colId === id);
  const values: GridColumn[] = layout.pivot
    ? cells.flatMap((id) => {
        const metric = layout.metrics.find((m) => id.endsWith(`__${m}`)) ?? '';
        const field = fields.get(metric);
        if (!field || state(metric)?.hide) return [];
        return [
          { id, name: `${id.slice(0, -metric.length - 2)} · ${fieldLabel(field)}`, field, kind: 'cell' as const },
        ];
      })
    : valueOrder(config, layout.metrics)
        .filter((id) => fields.has(id) && !state(id)?.hide)
        .map((id) => ({ id, name: fieldLabel(fields.get(id)!), field: fields.get(id), kind: 'value' as const }));
  // A pivot result column pins by its own colId (value__metric), as its sort and width are stored.
  const pin = (column: GridColumn) => state(column.id)?.pinned;
  const ordered = [
    ...values.filter((column) => pin(column) === 'left'),
    ...values.filter((column) => !pin(column)),
    // Blueprint's table freezes columns on the left only: right pins go last.
    ...values.filter((column) => pin(column) === 'right'),
  ];
  const group = layout.rowGroups.length
    ? [
        {
          id: GROUP_COLUMN,
          name: layout.rowGroups.map((id) => (fields.has(id) ? fieldLabel(fields.get(id)!) : id)).join(' › '),
          kind: 'group' as const,
        },
      ]
    : [];
  return { columns: [...group, ...ordered], frozen: group.length + values.filter((c) => pin(c) === 'left').length };
}

function rowCountText(source: GridSource): string {
  if (source.status === 'error') return 'N/A';
  return source.total === undefined ? '...' : source.total.toLocaleString();
}

/** The explorer view's grid, once its dataset is in the engine. */
export function ExplorerView(props: ExplorerViewProps) {
  const dataset = datasetOfExplorer(props.config);
  const data = useWidgetData(props.scope, dataset);
  if (data.status === 'error') return <WidgetError title={data.error ?? ''} />;
  if (!data.schema || !data.version) return <WidgetLoading progress={data.progress} />;
  return <ExplorerGrid {...props} schema={data.schema} version={data.version} />;
}

type VisibleRows = { first: number; last: number };
const FIRST_BLOCK: VisibleRows = { first: 0, last: BLOCK_SIZE - 1 };
const NO_GROUPS: ExpandedGroup[] = [];

interface GridProps extends ExplorerViewProps {
  schema: DatasetSchema;
  version: string;
}

function ExplorerGrid({ config, scope, canEdit, onEdit, schema, version }: GridProps) {
  const weekStart = useAppSelector(selectFirstDayOfWeek);
  const { locale } = useDashboardWorkspace(scope);
  const today = localToday();
  const main = resolveConfigDateRanges(config.dateRanges, today, weekStart).main;
  const layout = useMemo(() => {
    const full = gridLayout(config);
    const metrics = full.metrics.filter((id) => schema.fields.some((f) => f.id === id && f.type === 'metric'));
    // A pivot needs a value to spread; without one the grid shows its groups.
    return { ...full, metrics, pivot: metrics.length ? full.pivot : null };
  }, [config, schema]);
  const filters = useFilterModel(config, onEdit);
  const filterModel = useMemo(
    () => usableFilterModel({ ...config, filterModel: filters.model }, schema),
    [config, filters.model, schema],
  );
  const gridScope = useMemo(
    () => ({
      workspaceId: scope.workspaceId,
      version,
      dataset: schema.id,
      // A date field the dataset lacks (another dataset's) falls back to the dataset's own.
      dateField: schema.fields.some((f) => f.id === config.dateField && f.format === 'date')
        ? config.dateField
        : undefined,
      range: { start: main.start, end: main.end },
      filters: [],
    }),
    [scope.workspaceId, version, schema, config.dateField, main.start, main.end],
  );
  const [panelOpen, setPanelOpen] = useState(false);
  // A new grouping, sort, filter or range reorders the rows: expanded positions no longer hold, and the new
  // grid starts at its top. Reset while rendering, so the first queries of the new shape are the right ones.
  const shape = JSON.stringify([layout, filterModel, gridScope]);
  const [rows, setRows] = useState<{ shape: string; expanded: ExpandedGroup[]; visible: VisibleRows }>({
    shape,
    expanded: [],
    visible: FIRST_BLOCK,
  });
  if (rows.shape !== shape) setRows({ shape, expanded: [], visible: FIRST_BLOCK });
  const { expanded, visible } = rows.shape === shape ? rows : { expanded: NO_GROUPS, visible: FIRST_BLOCK };
  const source = useGridSource(gridScope, layout, filterModel, expanded, visible);
  const exporter = useExplorerExport();
  const nothing = layout.rowGroups.length + layout.metrics.length === 0;
  const { columns, frozen } = useMemo(
    () => gridColumns(schema, config, layout, source.pivotColumns),
    [schema, config, layout, source.pivotColumns],
  );

  const widths = useMemo(() => {
    const stored = columnsOf(config);
    return columns.map(
      (column) =>
        stored.find((c) => c.colId === column.id)?.width ?? (column.kind === 'group' ? GROUP_WIDTH : DEFAULT_WIDTH),
    );
  }, [columns, config]);
  const latestColumns = useRef(columns);
  latestColumns.current = columns;
  const resize = useMemo(
    () =>
      debounce((index: number, width: number) => {
        const column = latestColumns.current[index];
        if (column) onEdit((current) => columnResized(current, column.id, width));
      }, COLUMN_CHANGE_DEBOUNCE_MS),
    [onEdit],
  );
  useEffect(() => () => resize.flush(), [resize]);

  const toggle = useCallback((path: GroupPath, index: number) => {
    setRows(({ expanded: old, ...rest }) => {
      const key = pathKey(path);
      const open = old.some((group) => pathKey(group.path) === key);
      // Collapsing a group collapses everything under it.
      const under = (group: ExpandedGroup) => pathKey(group.path.slice(0, path.length)) === key;
      return { ...rest, expanded: open ? old.filter((group) => !under(group)) : [...old, { path, index }] };
    });
  }, []);

  // While the engine counts, the table is already drawn with loading cells (as many rows as it last had), so
  // drawing its columns overlaps the queries rather than following them.
  const lastSize = useRef(BLOCK_SIZE);
  if (source.total !== undefined) lastSize.current = source.size || BLOCK_SIZE;
  const numRows = source.total === undefined ? lastSize.current : source.size;

  // One renderer per column, kept while the rows and columns are the same: the table redraws every cell when its
  // renderers or their dependencies change identity, so a render that changes nothing it shows costs nothing.
  const cellRenderers = useMemo(() => {
    const refs = new Map<number, RowRef | undefined>();
    const locate = (rowIndex: number) => {
      // Before the count, the first rows are the top level's (a new shape has no expanded groups).
      const counted = source.total !== undefined;
      if (!refs.has(rowIndex))
        refs.set(rowIndex, counted ? locateRow(source.tree, rowIndex) : { path: [], index: rowIndex, depth: 0 });
      return refs.get(rowIndex);
    };
    const renderCell = (column: GridColumn) => (rowIndex: number) => {
      const ref = locate(rowIndex);
      const row = ref && source.rowOf(ref.path, ref.index);
      if (!ref || !row) return <Cell loading />;
      if (column.kind !== 'group') {
        const tone = baselineTone(row[column.id], column.field, config.kpiData);
        return (
          <Cell className={tone ? `or-baseline-${tone}` : undefined}>
            {formatField(row[column.id], column.field, locale)}
          </Cell>
        );
      }
      return groupCell(row, ref);
    };
    const groupCell = (row: Record<string, CellValue>, ref: RowRef) => {
      const dimension = layout.rowGroups[ref.depth];
      const value = row[dimension];
      const field = schema.fields.find((f) => f.id === dimension);
      const text = value === null || value === '' ? explorerMessages.blank : formatField(value, field, locale);
      const path: GroupPath = [...ref.path, value === null ? null : String(value)];
      const isOpen = source.tree.expanded.some((group) => pathKey(group.path) === pathKey(path));
      const expandable = ref.depth < layout.rowGroups.length - 1;
      return (
        <Cell className="or-explorer-group" style={{ paddingLeft: 8 + ref.depth * 20 }}>
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
        </Cell>
      );
    };
    return columns.map(renderCell);
  }, [source, columns, locale, config.kpiData, layout.rowGroups, schema, toggle]);

  const headerRenderers = useMemo(() => {
    const stored = columnsOf(config);
    const groupFilters = layout.rowGroups.flatMap((id) => {
      const field = schema.fields.find((f) => f.id === id);
      return field ? [<DimensionFilter key={id} field={field} filters={filters} />] : [];
    });
    const menu = (column: GridColumn) => {
      const colState = stored.find((c) => c.colId === column.id);
      const model = filters.model?.[column.id] as NumberFilter | undefined;
      const filter = model?.filterType === 'number' ? model : undefined;
      return (
        <ColumnMenu
          sort={colState?.sort ?? null}
          pinned={colState?.pinned ?? null}
          onSort={(sort) => onEdit((current) => columnSorted(current, column.id, sort))}
          onPin={(pinned) => onEdit((current) => columnPinned(current, column.id, pinned))}
          onHide={column.kind === 'value' ? () => onEdit((c) => columnHidden(c, column.id, true)) : undefined}
          numberFilter={
            column.kind === 'value' ? { filter, onChange: (next) => filters.setFilter(column.id, next) } : undefined
          }
          dimensionFilters={column.kind === 'group' && groupFilters}
        />
      );
    };
    return columns.map((column) => () => (
      <ColumnHeaderCell name={column.name} menuRenderer={canEdit ? () => menu(column) : undefined} />
    ));
  }, [columns, config, layout.rowGroups, schema, canEdit, onEdit, filters]);

  return (
    <div className="or-explorer">
      <div className="or-explorer-bar">
        <DateFieldChip
          schema={schema}
          dateField={config.dateField}
          canEdit={canEdit}
          onChange={(dateField) => onEdit((current) => dateFieldChanged(current, dateField))}
        />
        <span className="or-explorer-count" aria-label="Total rows">
          Rows: {nothing ? 0 : rowCountText(source)}
        </span>
        <BaselinesButton schema={schema} config={config} scope={scope} canEdit={canEdit} onEdit={onEdit} />
        <ExportMenu
          progress={exporter.progress}
          disabled={nothing || source.status !== 'success' || !source.total}
          onExport={(format) =>
            void exporter.start(format, {
              schema,
              scope: gridScope,
              layout,
              filterModel,
              values: columns.flatMap((column, index) =>
                column.kind === 'group' ? [] : [{ id: column.id, field: column.field, width: widths[index] }],
              ),
              pivotValues: source.pivotValues,
              locale,
              title: config.title ?? EXPORT_SHEET_NAME,
            })
          }
          onCancel={exporter.cancel}
        />
        <Button
          icon="panel-table"
          text="Columns"
          variant="minimal"
          disabled={!canEdit}
          active={panelOpen && canEdit}
          onClick={() => setPanelOpen((open) => !open)}
        />
      </div>
      {layout.pivot && source.pivotTotal > source.pivotValues.length && (
        <Callout intent="warning" compact icon="th-disconnect">
          {pivotCutMessage(source.pivotValues.length, source.pivotTotal)}
        </Callout>
      )}
      <div className="or-explorer-body">
        <div className="or-explorer-grid">
          {nothing ? (
            <NonIdealState icon="th" title={explorerMessages.nothingSelected} />
          ) : source.status === 'error' ? (
            <Callout intent="danger" title={widgetMessages.chartError} />
          ) : source.status === 'success' && source.total === 0 ? (
            <NonIdealState
              icon="filter"
              title={explorerMessages.noRows}
              action={
                canEdit && filters.model ? (
                  <Button
                    variant="minimal"
                    intent="primary"
                    text={explorerMessages.clearFilters}
                    onClick={filters.clear}
                  />
                ) : undefined
              }
            />
          ) : (
            <Table
              numRows={numRows}
              numFrozenColumns={frozen}
              columnWidths={widths}
              enableColumnResizing={canEdit}
              enableColumnReordering={canEdit}
              enableRowHeader={false}
              cellRendererDependencies={[source, columns, locale, config.kpiData]}
              onColumnWidthChanged={(index, width) => resize(index, width)}
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
                queueMicrotask(() =>
                  setRows((old) =>
                    old.visible.first === first && old.visible.last === last
                      ? old
                      : { ...old, visible: { first, last } },
                  ),
                );
              }}
            >
              {columns.map((column, index) => (
                <Column
                  key={column.id}
                  id={column.id}
                  name={column.name}
                  cellRenderer={cellRenderers[index]}
                  columnHeaderCellRenderer={headerRenderers[index]}
                />
              ))}
            </Table>
          )}
        </div>
        {panelOpen && canEdit && (
          <SidePanel schema={schema} config={config} layout={layout} onEdit={onEdit} filters={filters} />
        )}
      </div>
    </div>
  );
}
