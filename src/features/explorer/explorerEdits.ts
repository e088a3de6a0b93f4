import { type ExplorerConfig } from '../../contracts/reports';

export type ExplorerColumn = NonNullable<ExplorerConfig['columns']>[number];
export type SortDirection = 'asc' | 'desc';
export type Pinned = 'left' | 'right';

/** Width limits of a grid column in pixels; a resize outside them is clamped. */
export const MIN_COLUMN_WIDTH = 40;
export const MAX_COLUMN_WIDTH = 2000;

/** The view's columns in their order; older saved views keep them under `view`. */
export function columnsOf(config: ExplorerConfig): ExplorerColumn[] {
  return config.columns ?? config.view ?? [];
}

/** The config with new columns; the legacy `view` name is dropped so the columns live in one place. */
function withColumns(config: ExplorerConfig, columns: ExplorerColumn[]): ExplorerConfig {
  const { view: _legacy, ...rest } = config;
  return { ...rest, columns };
}

/** Changes one column, adding it at the end when the view does not list it yet. */
function patchColumn(config: ExplorerConfig, colId: string, patch: Partial<ExplorerColumn>): ExplorerConfig {
  const columns = columnsOf(config);
  const exists = columns.some((column) => column.colId === colId);
  return withColumns(
    config,
    exists
      ? columns.map((column) => (column.colId === colId ? { ...column, ...patch } : column))
      : [...columns, { colId, ...patch }],
  );
}

export function columnHidden(config: ExplorerConfig, colId: string, hide: boolean): ExplorerConfig {
  return patchColumn(config, colId, { hide });
}

export function columnResized(config: ExplorerConfig, colId: string, width: number): ExplorerConfig {
  const clamped = Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, width)));
  return patchColumn(config, colId, { width: clamped });
}

export function columnPinned(config: ExplorerConfig, colId: string, pinned: Pinned | null): ExplorerConfig {
  return patchColumn(config, colId, { pinned });
}

/** Sorts by one column (the others lose their sort) or, with `add`, by this column after the others. */
export function columnSorted(
  config: ExplorerConfig,
  colId: string,
  sort: SortDirection | null,
  add = false,
): ExplorerConfig {
  const cleared = add
    ? config
    : withColumns(
        config,
        columnsOf(config).map((column) => (column.sort && column.colId !== colId ? { ...column, sort: null } : column)),
      );
  return patchColumn(cleared, colId, { sort });
}

/** Moves a column to `index` in the view's order (clamped to the list). */
export function columnMoved(config: ExplorerConfig, colId: string, index: number): ExplorerConfig {
  const withColumn = patchColumn(config, colId, {});
  const columns = columnsOf(withColumn);
  const column = columns.find((candidate) => candidate.colId === colId)!;
  const rest = columns.filter((candidate) => candidate !== column);
  const at = Math.max(0, Math.min(rest.length, index));
  return withColumns(withColumn, [...rest.slice(0, at), column, ...rest.slice(at)]);
}

/** The grid's shown columns in a new order (a drag in the header); the view's other columns follow them. */
export function columnsReordered(config: ExplorerConfig, shown: string[]): ExplorerConfig {
  const columns = columnsOf(config);
  const byId = new Map(columns.map((column) => [column.colId, column]));
  const moved = shown.map((colId) => byId.get(colId) ?? { colId });
  return withColumns(config, [...moved, ...columns.filter((column) => !shown.includes(column.colId))]);
}

/** Value columns in the view's order (a metric the columns do not list yet goes last). */
export function valueOrder(config: ExplorerConfig, metrics: string[]): string[] {
  const ids = columnsOf(config).map((column) => column.colId);
  const position = (id: string) => (ids.includes(id) ? ids.indexOf(id) : ids.length);
  return [...metrics].sort((a, b) => position(a) - position(b));
}

/** Moves one of `ids` (the panel's list, in its order) one place up (-1) or down (+1) among them. */
export function movedInList(config: ExplorerConfig, ids: string[], colId: string, step: -1 | 1): ExplorerConfig {
  const from = ids.indexOf(colId);
  const to = from + step;
  if (from === -1 || to < 0 || to >= ids.length) return config;
  const next = [...ids];
  [next[from], next[to]] = [next[to], next[from]];
  return columnsReordered(config, next);
}

/** Groups rows by a dimension (as the last level) or stops grouping by it. */
export function rowGroupChanged(config: ExplorerConfig, colId: string, grouped: boolean): ExplorerConfig {
  if (!grouped) return patchColumn(config, colId, { rowGroup: false });
  // A new level goes after the existing ones: the group order is the columns' order.
  const moved = columnMoved(config, colId, rowGroupsOf(config).length);
  return patchColumn(moved, colId, { rowGroup: true, pivot: false });
}

/** Pivots by one dimension (at most one) or by none, turning pivot mode on or off with it. */
export function pivotChanged(config: ExplorerConfig, colId: string | null): ExplorerConfig {
  const columns = columnsOf(config).map((column) => (column.pivot ? { ...column, pivot: false } : column));
  const cleared = withColumns(config, columns);
  if (colId === null) return { ...cleared, pivotMode: false };
  return { ...patchColumn(cleared, colId, { pivot: true, rowGroup: false }), pivotMode: true };
}

/** Shows a metric as a value column (at the end) or removes it. */
export function valueColumnChanged(config: ExplorerConfig, metric: string, shown: boolean): ExplorerConfig {
  const values = (config.valueColumns ?? []).filter((id) => id !== metric);
  return { ...config, valueColumns: shown ? [...values, metric] : values };
}

/** One column's filter, or none; an empty model is stored as no model. */
export function columnFilterChanged(config: ExplorerConfig, colId: string, filter: unknown): ExplorerConfig {
  const { [colId]: _old, ...others } = config.filterModel ?? {};
  const model = filter === null || filter === undefined ? others : { ...others, [colId]: filter };
  return { ...config, filterModel: Object.keys(model).length ? model : null };
}

export function filtersCleared(config: ExplorerConfig): ExplorerConfig {
  return { ...config, filterModel: null };
}

export function dateFieldChanged(config: ExplorerConfig, dateField: string): ExplorerConfig {
  return { ...config, dateField };
}

/**
 * The view's baselines (spec 2 "Baselines drawer"): the values by metric and the id of the set they came from,
 * a template's baseline set or a new id for the view's own; none clears both.
 */
export function baselinesApplied(
  config: ExplorerConfig,
  baselines: { kpiData: Record<string, number>; baselineId: string } | null,
): ExplorerConfig {
  if (!baselines) return { ...config, kpiData: {}, baselineId: null };
  return { ...config, kpiData: baselines.kpiData, baselineId: baselines.baselineId };
}

/** The grid the config describes: what the queries group, pivot and sort by and the columns it shows. */
export interface GridLayout {
  rowGroups: string[];
  pivot: string | null;
  metrics: string[];
  sort: { field: string; desc: boolean }[];
}

export function rowGroupsOf(config: ExplorerConfig): string[] {
  return columnsOf(config)
    .filter((column) => column.rowGroup)
    .map((column) => column.colId);
}

export function gridLayout(config: ExplorerConfig): GridLayout {
  const columns = columnsOf(config);
  const pivot = config.pivotMode ? (columns.find((column) => column.pivot)?.colId ?? null) : null;
  return {
    rowGroups: rowGroupsOf(config),
    pivot,
    metrics: config.valueColumns ?? [],
    sort: columns.flatMap((column) => (column.sort ? [{ field: column.colId, desc: column.sort === 'desc' }] : [])),
  };
}
