import { ColumnHeaderCell } from '@blueprintjs/table';
import { useEffect, useMemo } from 'react';
import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { type ExplorerConfig } from '../../contracts/reports';
import { debounce } from '../widgets/rich_text/richText';
import { fieldLabel } from '../widgets/widgetQuery';
import { widgetMessages } from '../widgets/WidgetStates';
import { ColumnHeaderName, ColumnMenu, type NumberFilter } from './ColumnMenu';
import { DimensionFilter } from './DimensionFilter';
import {
  type GridLayout,
  columnHidden,
  columnPinned,
  columnResized,
  columnSorted,
  columnsOf,
  valueOrder,
} from './explorerEdits';
import { type GridFilters } from './useFilterModel';
import { GROUP_COLUMN } from './useGridSource';

/** The explorer grid's columns: which there are, their widths, and how their cells and headers are drawn. */

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

/** The columns' widths as stored in the view, and a resize that becomes a report edit once the user stops. */
export function useColumnWidths(
  columns: GridColumn[],
  config: ExplorerConfig,
  onEdit: (edit: (config: ExplorerConfig) => ExplorerConfig) => void,
) {
  const widths = useMemo(() => {
    const stored = columnsOf(config);
    return columns.map(
      (column) =>
        stored.find((c) => c.colId === column.id)?.width ?? (column.kind === 'group' ? GROUP_WIDTH : DEFAULT_WIDTH),
    );
  }, [columns, config]);
  const resize = useMemo(
    () =>
      debounce(
        (columnId: string, width: number) => onEdit((current) => columnResized(current, columnId, width)),
        COLUMN_CHANGE_DEBOUNCE_MS,
      ),
    [onEdit],
  );
  useEffect(() => () => resize.flush(), [resize]);
  return { widths, resize };
}

interface HeaderRendererInput {
  columns: GridColumn[];
  config: ExplorerConfig;
  rowGroups: string[];
  schema: DatasetSchema;
  canEdit: boolean;
  onEdit(edit: (config: ExplorerConfig) => ExplorerConfig): void;
  filters: GridFilters;
}

/** Each column's header with its menu (sort, pin, hide, filters) where the user may edit. */
export function useHeaderRenderers({
  columns,
  config,
  rowGroups,
  schema,
  canEdit,
  onEdit,
  filters,
}: HeaderRendererInput) {
  return useMemo(() => {
    const stored = columnsOf(config);
    const groupFilters = rowGroups.flatMap((id) => {
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
      <ColumnHeaderCell
        name={column.name}
        nameRenderer={(name) => <ColumnHeaderName name={name} menu={canEdit ? () => menu(column) : undefined} />}
      />
    ));
  }, [columns, config, rowGroups, schema, canEdit, onEdit, filters]);
}
