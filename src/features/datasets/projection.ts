import { type DatasetSchema } from '../../contracts/datasets';
import { type DashboardConfig } from '../../contracts/reports';
import { type Target } from '../../contracts/targets';
import { ident } from '../../engine/sql';
import { publicDatasetScope, type TargetRead } from '../public-report/publicScope';

/**
 * What a dashboard in view mode reads (issue 20): its widgets, its global filters and the targets its target cards
 * show. A dataset is then loaded with only the columns these read; edit mode, the explorer and every drawer, where
 * the user may pick any field, load the whole dataset.
 */
export interface DashboardProjection extends Pick<DashboardConfig, 'widgets' | 'filters'> {
  targets: TargetRead[];
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
