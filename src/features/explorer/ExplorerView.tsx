import '@blueprintjs/table/lib/css/table.css';
import { Button, Callout, NonIdealState, Spinner } from '@blueprintjs/core';
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { type DatasetSchema } from '../../contracts/datasets';
import { datasetOfExplorer, type ExplorerConfig } from '../../contracts/reports';
import { useAppSelector } from '../../store/hooks';
import { useDashboardWorkspace } from '../dashboard/useWidgetContext';
import { localToday, resolveConfigDateRanges } from '../date-range/ranges';
import { selectFirstDayOfWeek } from '../prefs/prefsSlice';
import { type DataScope } from '../widgets/types';
import { useWidgetData } from '../widgets/useWidgetData';
import { WidgetError, WidgetLoading, widgetMessages } from '../widgets/WidgetStates';
import { BaselinesButton } from './BaselinesDrawer';
import { DateFieldChip } from './DateFieldDrawer';
import { dateFieldChanged, gridLayout } from './explorerEdits';
import { ExplorerTable } from './ExplorerTable';
import { EXPORT_SHEET_NAME } from './exportFile';
import { ExportMenu } from './ExportMenu';
import { GridRowsProvider, useCellRenderers } from './gridCells';
import { explorerMessages, gridColumns, useColumnWidths, useHeaderRenderers } from './gridColumns';
import { BLOCK_SIZE, type ExpandedGroup, type GroupPath, pathKey } from './gridRows';
import { SidePanel } from './SidePanel';
import { useExplorerExport } from './useExplorerExport';
import { useFilterModel } from './useFilterModel';
import { type GridSource, useGridSource, usableFilterModel } from './useGridSource';
import './explorer.css';

/** Spec 2 §9 allows a pivot 100 result columns: the grid says when its pivot dimension had more values. */
export const pivotCutMessage = (shown: number, total: number) =>
  `The pivot was cut to 100 columns: it shows ${shown.toLocaleString()} of ${total.toLocaleString()} values.`;

export { explorerMessages, gridColumns } from './gridColumns';

export interface ExplorerViewProps {
  config: ExplorerConfig;
  scope: DataScope;
  /** Write access (and not the public page): menus, resizing, reordering and the side panel. */
  canEdit: boolean;
  onEdit(edit: (config: ExplorerConfig) => ExplorerConfig): void;
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

/**
 * The grid itself, with its toolbar and notices.
 * Long because it wires the view's state (rows in view, filters, widths, renderers) to its toolbar, notices and
 * table in one place; the parts themselves live in gridColumns.tsx, gridCells.tsx, ExplorerTable.tsx,
 * useGridSource.ts and useFilterModel.ts.
 */
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
  const changeDateField = useCallback(
    (dateField: string) => onEdit((current) => dateFieldChanged(current, dateField)),
    [onEdit],
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

  const { widths, resize } = useColumnWidths(columns, config, onEdit);

  const toggle = useCallback((path: GroupPath, index: number) => {
    setRows(({ expanded: old, ...rest }) => {
      const key = pathKey(path);
      const open = old.some((group) => pathKey(group.path) === key);
      // Collapsing a group collapses everything under it.
      const under = (group: ExpandedGroup) => pathKey(group.path.slice(0, path.length)) === key;
      return { ...rest, expanded: open ? old.filter((group) => !under(group)) : [...old, { path, index }] };
    });
  }, []);

  const showBlocks = useCallback(
    (first: number, last: number) =>
      setRows((old) =>
        old.visible.first === first && old.visible.last === last ? old : { ...old, visible: { first, last } },
      ),
    [],
  );

  // While the engine counts a new shape (another pivot, more values, a new sort), the table stays drawn with
  // loading cells, as many rows as it last had: drawing its new columns overlaps the queries instead of following
  // them, and the grid does not flash a spinner. Only a grid with nothing drawn yet waits for its count.
  const drawnRows = useRef(0);
  if (source.status === 'success') drawnRows.current = source.size;
  const numRows = source.status === 'success' ? source.size : drawnRows.current;

  const cellRenderers = useCellRenderers({
    columns,
    locale,
    kpiData: config.kpiData,
    rowGroups: layout.rowGroups,
    schema,
    toggle,
  });
  const headerRenderers = useHeaderRenderers({
    columns,
    config,
    rowGroups: layout.rowGroups,
    schema,
    canEdit,
    onEdit,
    filters,
  });
  // The table draws what changed in a deferred render that React may interrupt: a new shape's queries go out
  // first (its effects), and an answer arriving meanwhile is taken at once rather than after the table's render.
  const drawn = useMemo(
    () => ({ source, shape, numRows, frozen, widths, columns, cells: cellRenderers, headers: headerRenderers }),
    [source, shape, numRows, frozen, widths, columns, cellRenderers, headerRenderers],
  );
  const table = useDeferredValue(drawn);

  return (
    <div className="or-explorer">
      <div className="or-explorer-bar">
        <DateFieldChip schema={schema} dateField={config.dateField} canEdit={canEdit} onChange={changeDateField} />
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
          ) : source.status === 'loading' && numRows === 0 ? (
            <Spinner size={24} />
          ) : (
            <GridRowsProvider source={table.source}>
              <ExplorerTable
                shape={table.shape}
                numRows={table.numRows}
                frozen={table.frozen}
                widths={table.widths}
                canEdit={canEdit}
                columns={table.columns}
                cells={table.cells}
                headers={table.headers}
                onResize={resize}
                onEdit={onEdit}
                onVisibleBlocks={showBlocks}
              />
            </GridRowsProvider>
          )}
        </div>
        {panelOpen && canEdit && (
          <SidePanel schema={schema} config={config} layout={layout} onEdit={onEdit} filters={filters} />
        )}
      </div>
    </div>
  );
}
