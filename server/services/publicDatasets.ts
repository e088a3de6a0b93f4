import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { toDatasetSchema } from '../../src/contracts/catalogue';
import { type DatasetSchema } from '../../src/contracts/datasets';
import { explorerWithCurrentNames } from '../../src/contracts/legacyFields';
import {
  dashboardConfigSchema,
  explorerConfigSchema,
  type ReportConfig,
  type ReportType,
} from '../../src/contracts/reports';
import { targetIdsOfConfig } from '../../src/contracts/targets';
import {
  explorerPublicScope,
  type PublicDatasetScope,
  publicDatasetScope,
  scopeCondition,
  scopeWidens,
} from '../../src/features/public-report/publicScope';
import { fieldsWithCustomFields, getCustomFieldGroups } from './dataModel';
import { availableDatasets, isEngagementDataset, type DatasetFile } from './datasets';
import type { Executor } from './db';
import { removeOlderEntries, scopedDatasetFile, SOURCE_TABLE } from './scopedFiles';
import { targetsByIds } from './targets';

type ScopeOf = (schema: DatasetSchema) => PublicDatasetScope | null;

/** How a report's config scopes a dataset, or null when the config does not parse as its type's. */
async function scopeReader(
  db: Executor,
  workspaceId: number,
  type: ReportType,
  config: ReportConfig,
): Promise<ScopeOf | null> {
  if (type === 'explorer_view') {
    const parsed = explorerConfigSchema.safeParse(config);
    if (!parsed.success) return null;
    // Older saved views may name fields as the older datasets did: the page reads them with today's names.
    const view = explorerWithCurrentNames(parsed.data);
    return (schema) => explorerPublicScope(view, schema, SOURCE_TABLE);
  }
  const parsed = dashboardConfigSchema.safeParse(config);
  if (type !== 'dashboard' || !parsed.success) return null;
  // Target cards read their targets' datasets, metrics and filters, not the widget's.
  const targets = await targetsByIds(db, workspaceId, targetIdsOfConfig(parsed.data));
  return (schema) => publicDatasetScope(parsed.data, schema, SOURCE_TABLE, targets);
}

/** What a report's public link serves of each dataset it reads: a dashboard's widgets' or an explorer grid's. */
export async function publicScopes(
  db: Executor,
  workspaceId: number,
  type: ReportType,
  config: ReportConfig,
): Promise<Map<string, { schema: DatasetSchema; scope: PublicDatasetScope }>> {
  const scopes = new Map<string, { schema: DatasetSchema; scope: PublicDatasetScope }>();
  const scopeOf = await scopeReader(db, workspaceId, type, config);
  if (!scopeOf) return scopes;
  const { all } = await availableDatasets(db, workspaceId);
  const groups = await getCustomFieldGroups(db, workspaceId);
  for (const dataset of all) {
    if (isEngagementDataset(dataset.id)) continue;
    // With the workspace's custom fields, as the signed-in schema answer gives it.
    const schema: DatasetSchema = { ...toDatasetSchema(dataset), fields: fieldsWithCustomFields(dataset, groups) };
    const scope = scopeOf(schema);
    if (scope) scopes.set(dataset.id, { schema, scope });
  }
  return scopes;
}

/** True when saving `next` over `previous` would let the report's public link serve rows or fields it did not. */
export async function widensPublicLink(
  db: Executor,
  workspaceId: number,
  type: ReportType,
  previous: ReportConfig,
  next: ReportConfig,
): Promise<boolean> {
  const before = await publicScopes(db, workspaceId, type, previous);
  const after = await publicScopes(db, workspaceId, type, next);
  return [...after].some(([id, { scope }]) => scopeWidens(before.get(id)?.scope ?? null, scope));
}

function publicDir(dataDir: string, reportId: number): string {
  return path.join(dataDir, 'public', String(reportId));
}

/** Forgets every public file of a report: after a save, a rename, a deletion or a change of its public link. */
export function invalidatePublicDatasets(dataDir: string, reportId: number): void {
  fs.rmSync(publicDir(dataDir, reportId), { recursive: true, force: true });
}

/**
 * The public file of one dataset of a report: the rows and columns its scope serves, built with native DuckDB
 * from the workspace's Parquet file and kept until the report, the dataset or the data model changes. Concurrent
 * requests share one build.
 */
export async function publicDatasetFile(
  dataDir: string,
  reportId: number,
  reportVersion: number,
  source: DatasetFile,
  schema: DatasetSchema,
  scope: PublicDatasetScope,
): Promise<DatasetFile> {
  const key = createHash('sha256')
    .update(JSON.stringify([reportVersion, source.version, scope.fields, scopeCondition(scope)]))
    .digest('hex')
    .slice(0, 20);
  const dir = path.join(publicDir(dataDir, reportId), schema.id, key);
  // Files built before this one started are of an older report or data version and never served again; a newer
  // build that finished first is left alone.
  return scopedDatasetFile(
    source,
    { tableId: schema.tableId, fields: scope.fields, condition: scopeCondition(scope) },
    dir,
    (started) => removeOlderEntries(path.dirname(dir), dir, started),
  );
}
