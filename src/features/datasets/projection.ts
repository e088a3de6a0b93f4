import { type DatasetSchema } from '../../contracts/datasets';
import { type DashboardConfig, datasetQueriedByWidget } from '../../contracts/reports';
import { type Target } from '../../contracts/targets';
import { firstDayRead } from '../../engine/daysRead';
import { readsEveryRow } from '../../engine/filters';
import { type QueryInput } from '../../engine/queries';
import { ident } from '../../engine/sql';
import { publicDatasetScope, type TargetRead, widgetReads } from '../public-report/publicScope';
import { effectiveFilters } from '../widgets/widgetQuery';

/**
 * What a dashboard in view mode reads (issue 20): its widgets, its global filters and the targets its target cards
 * show. A dataset is then loaded with only the columns these read; edit mode, the explorer and every drawer, where
 * the user may pick any field, load the whole dataset.
 */
export interface DashboardProjection extends Pick<DashboardConfig, 'widgets' | 'filters'> {
  targets: TargetRead[];
  /**
   * The first day the dashboard reads (its date ranges and its targets' periods), as the first of its month, so
   * that the file changes once a month, not every day; undefined: every day.
   */
  firstDay?: string;
}

/** The name of the whole dataset in the public scope's row conditions; a projection keeps every row. */
const WHOLE = '__dataset';

/**
 * The fields a dashboard reads of `schema`, with every field those are computed from: the public link's
 * computation, so both always agree. Of a dataset no widget reads, the view needs no more than its schema (the
 * filter bar's field names): its date field only.
 */
export function projectedColumns(projection: DashboardProjection, schema: DatasetSchema): string[] {
  const scope = publicDatasetScope(projection, schema, WHOLE, projection.targets);
  return scope ? scope.fields : [schema.dateField];
}

/** The first of the month of `day` (yyyy-MM-dd). */
export const monthStart = (day: string): string => `${day.slice(0, 7)}-01`;

/** The projection's first day: that of the earliest of `days` (the ranges' and the targets' starts). */
export const projectionFirstDay = (days: readonly string[]): string | undefined =>
  days.length ? monthStart([...days].sort()[0]) : undefined;

/**
 * The first day of `schema`'s rows a dashboard reads (the file then holds those from that day on), or undefined
 * when it needs every row: no widget reads the dataset, one reads it by another date field, or a filter measures
 * rows against the whole dataset (a row outlier). The widgets' queries read their ranges only (`firstDayRead`).
 */
export function projectedSince(projection: DashboardProjection, schema: DatasetSchema): string | undefined {
  if (!projection.firstDay) return undefined;
  const widgets = projection.widgets.filter((widget) => datasetQueriedByWidget(widget) === schema.id);
  const targets = projection.targets.filter((target) => target.dataset === schema.id);
  if (widgets.length === 0 && targets.length === 0) return undefined;
  const dateFields = new Set(schema.fields.filter((field) => field.format === 'date').map((field) => field.id));
  // widgetQueryScope: a widget's own date field counts when the dataset has it as a date.
  if (
    widgets.some(
      (widget) => widget.dateField && widget.dateField !== schema.dateField && dateFields.has(widget.dateField),
    )
  )
    return undefined;
  const filters = [
    ...(projection.filters ?? []),
    ...widgets.flatMap((widget) => widgetReads(widget).flatMap((read) => read.filters)),
    ...targets.flatMap((target) => target.filters),
  ];
  return readsEveryRow(effectiveFilters(filters, schema)) ? undefined : projection.firstDay;
}

/** True when a table holding the rows from `loaded` on (undefined: all) holds those from `wanted` on (all: null). */
export function coversRows(loaded: string | undefined, wanted: string | null | undefined): boolean {
  if (loaded === undefined) return true;
  return wanted !== null && wanted !== undefined && wanted >= loaded;
}

/** True when a table holding the rows from `since` on lacks rows `query` reads. */
export const lacksRows = (query: QueryInput, schema: DatasetSchema, since: string | undefined): boolean =>
  !coversRows(since, firstDayRead(schema, query));

/** Targets as the projection reads them. */
export const targetReads = (targets: readonly Target[]): TargetRead[] =>
  targets.map(({ dataset, metric, filters }) => ({ dataset, metric, filters }));

/** True when a table loaded with `loaded` (undefined: every column) holds every field of `wanted` (null: all). */
export function covers(loaded: readonly string[] | undefined, wanted: readonly string[] | null): boolean {
  if (loaded === undefined) return true;
  if (wanted === null) return false;
  const held = new Set(loaded);
  return wanted.every((id) => held.has(id));
}

/**
 * The fields of `schema` that `sql` names (as the SQL builders quote them) but a table loaded with `loaded`
 * lacks. Quoted output names that equal a field's id count too: a query may ask for more than it needs, never less.
 */
export function missingColumns(sql: string, schema: DatasetSchema, loaded: readonly string[] | undefined): string[] {
  if (loaded === undefined) return [];
  const held = new Set(loaded);
  return schema.fields.filter((field) => !held.has(field.id) && sql.includes(ident(field.id))).map((f) => f.id);
}
