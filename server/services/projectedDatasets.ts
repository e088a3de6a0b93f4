import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type DatasetFile } from './datasets';
import { literal } from './duckdb';
import { builtScope, quoteIdentifier, removeOlderEntries, type ScopedFormat, scopedDatasetFile } from './scopedFiles';

/** Column sets kept per dataset version: a workspace's dashboards ask for a few each; the oldest beyond go. */
export const PROJECTIONS_KEPT = 8;
/**
 * A set nobody asked for in this long is not built again for a new version (a deleted dashboard's, or the days a
 * dashboard read before its first day moved to the next month); the first request for it builds it.
 */
export const PROJECTION_UNUSED_MS = 14 * 24 * 3_600_000;
/** The file in a set's directory whose time is the set's last request (carried over to the next version's). */
const USED_MARKER = 'used';

/** Records a request for the projected file `file` (its set was just served), or `at` for a set built again. */
export function markProjectionUsed(file: DatasetFile, at = Date.now()): void {
  const marker = path.join(path.dirname(file.arrowPath), USED_MARKER);
  try {
    fs.closeSync(fs.openSync(marker, 'a'));
    fs.utimesSync(marker, new Date(at), new Date(at));
  } catch {
    // Removed meanwhile by a newer version's build: that build's set is marked by its own requests.
  }
}

/** When the set in `dir` was last asked for: its marker's time, else its build's. */
function lastUse(dir: string): number {
  const stat = (name: string) => fs.statSync(path.join(dir, name), { throwIfNoEntry: false })?.mtimeMs;
  return stat(USED_MARKER) ?? stat('manifest.json') ?? 0;
}

/** Where a workspace's projected files live, one directory per dataset. */
export const workspaceProjectionsDir = (dataDir: string, workspaceId: number): string =>
  path.join(dataDir, 'projections', String(workspaceId));

/** Where a workspace's projected files of one dataset live, one directory per source version. */
export function projectionsDir(dataDir: string, workspaceId: number, datasetId: string): string {
  return path.join(workspaceProjectionsDir(dataDir, workspaceId), datasetId);
}

/** The entries of `dir` other than unfinished builds, newest first by their last change. */
function newestEntries(dir: string): string[] {
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => !name.includes('.tmp-')) : [];
  return entries
    .map((name) => ({ dir: path.join(dir, name), stat: fs.statSync(path.join(dir, name), { throwIfNoEntry: false }) }))
    .filter((entry) => entry.stat)
    .sort((a, b) => b.stat!.mtimeMs - a.stat!.mtimeMs)
    .map((entry) => entry.dir);
}

/** Keeps the newest `PROJECTIONS_KEPT` column sets of `versionDir`, by their last build. */
function keepNewest(versionDir: string): void {
  for (const dir of newestEntries(versionDir).slice(PROJECTIONS_KEPT)) fs.rmSync(dir, { recursive: true, force: true });
}

/** The rows a projected file keeps: those whose date field (`dateField`) is on or after `since`; all without it. */
export interface ProjectedRows {
  since?: string;
  dateField?: string;
}

/** The SQL condition of `rows` over the source table; undefined for every row. */
function sinceCondition({ since, dateField }: ProjectedRows): string | undefined {
  if (!since || !dateField) return undefined;
  // The day as the SQL builders read it (pipeline.ts): a row without a day is in no date range.
  return `CAST(${quoteIdentifier(dateField)} AS DATE) >= ${literal(since)}::DATE`;
}

/** The directory of a set's file among a source version's. */
function projectionDir(versionDir: string, columns: readonly string[], format: ScopedFormat, rows: ProjectedRows) {
  // The Arrow files keep the keys they had before DuckDB files existed, and the files of every row theirs.
  const named = format === 'arrow' && !rows.since ? columns : { columns, format, ...rows };
  return path.join(versionDir, createHash('sha256').update(JSON.stringify(named)).digest('hex').slice(0, 20));
}

/**
 * A dataset file with only `columns` (sorted, distinct field ids; computed ones have no column and are skipped) and
 * every row or those of `rows`, for a dashboard that reads only those, as Arrow or as a DuckDB file: built once per
 * source version, column set, rows and format, with its own ETag. A build for a new source version removes the files
 * of older versions.
 */
export function projectedDatasetFile(
  dataDir: string,
  workspaceId: number,
  datasetId: string,
  tableId: string,
  source: DatasetFile,
  columns: readonly string[],
  format: ScopedFormat = 'arrow',
  rows: ProjectedRows = {},
): Promise<DatasetFile> {
  const datasetDir = projectionsDir(dataDir, workspaceId, datasetId);
  const versionDir = path.join(datasetDir, source.version);
  const dir = projectionDir(versionDir, columns, format, rows);
  const scope = { tableId, fields: columns, format, ...rows, condition: sinceCondition(rows) };
  return scopedDatasetFile(source, scope, dir, (started) => {
    removeOlderEntries(datasetDir, versionDir, started);
    keepNewest(versionDir);
  });
}

/**
 * As projectedDatasetFile, except for the rows from a day whose file is not built yet while a file of the same columns,
 * format and version from an earlier day is: that one answers at once (the latest such day), and the day's own file is
 * built meanwhile for the next request (a failure goes to `onError`; the next request tries again). It holds every row
 * asked for and some before, which the browser's date ranges ignore. A dashboard's first day moves to the next month
 * once a month, and its first open after that would otherwise wait for a build (seconds at 10^7 rows: bench/README.md).
 * `standIn` says which was sent: the stand-in is not marked as asked for, so it is not built again for long.
 */
export async function projectedDaysFile(
  dataDir: string,
  workspaceId: number,
  datasetId: string,
  tableId: string,
  source: DatasetFile,
  columns: readonly string[],
  format: ScopedFormat,
  rows: ProjectedRows,
  onError: (error: unknown) => void,
): Promise<{ file: DatasetFile; standIn: boolean }> {
  const build = (days: ProjectedRows) =>
    projectedDatasetFile(dataDir, workspaceId, datasetId, tableId, source, columns, format, days);
  const versionDir = path.join(projectionsDir(dataDir, workspaceId, datasetId), source.version);
  const { since, dateField } = rows;
  if (!since || fs.existsSync(path.join(projectionDir(versionDir, columns, format, rows), 'manifest.json'))) {
    return { file: await build(rows), standIn: false };
  }
  const fields = JSON.stringify(columns);
  let earlier: string | undefined;
  for (const dir of newestEntries(versionDir)) {
    const scope = builtScope(dir);
    if (!scope?.since || scope.format !== format || scope.dateField !== dateField) continue;
    if (JSON.stringify(scope.fields) !== fields || scope.since >= since) continue;
    if (!earlier || scope.since > earlier) earlier = scope.since;
  }
  if (earlier === undefined) return { file: await build(rows), standIn: false };
  const standIn = await build({ since: earlier, dateField });
  build(rows).catch(onError);
  return { file: standIn, standIn: true };
}

interface BuiltSet {
  columns: string[];
  format: ScopedFormat;
  rows: ProjectedRows;
  /** The set's last request (ms since the epoch). */
  usedAt: number;
}

/**
 * The column sets built for a workspace's dataset (any source version) and asked for within `PROJECTION_UNUSED_MS`
 * of `now`, newest first, at most `PROJECTIONS_KEPT`.
 */
export function builtColumnSets(dataDir: string, workspaceId: number, datasetId: string, now = Date.now()): BuiltSet[] {
  const sets = new Map<string, BuiltSet>();
  for (const versionDir of newestEntries(projectionsDir(dataDir, workspaceId, datasetId))) {
    for (const dir of newestEntries(versionDir)) {
      const scope = builtScope(dir);
      const name = JSON.stringify(scope);
      const usedAt = lastUse(dir);
      if (!scope || sets.has(name) || now - usedAt > PROJECTION_UNUSED_MS) continue;
      const { fields, format, since, dateField } = scope;
      sets.set(name, { columns: fields, format, rows: since ? { since, dateField } : {}, usedAt });
    }
  }
  return [...sets.values()].slice(0, PROJECTIONS_KEPT);
}

/**
 * Builds for `source` (a new version of the dataset) the column sets that were built for its earlier versions and asked
 * for lately, so the dashboards that asked for them open without waiting for a build (at 10^7 rows one takes seconds:
 * bench/README.md). The sets are listed first: each build for the new version removes the older versions' files.
 * Answers how many are ready; a set that fails is passed to `onError` and left to the first request for it.
 */
export async function buildKnownProjections(
  dataDir: string,
  workspaceId: number,
  datasetId: string,
  tableId: string,
  source: DatasetFile,
  onError: (error: unknown) => void,
): Promise<number> {
  let built = 0;
  for (const { columns, format, rows, usedAt } of builtColumnSets(dataDir, workspaceId, datasetId)) {
    try {
      const file = await projectedDatasetFile(dataDir, workspaceId, datasetId, tableId, source, columns, format, rows);
      // Built ahead is not asked for: the set keeps its last request's time.
      markProjectionUsed(file, usedAt);
      built += 1;
    } catch (error) {
      onError(error);
    }
  }
  return built;
}
