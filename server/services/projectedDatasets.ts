import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type DatasetFile } from './datasets';
import { removeOlderEntries, type ScopedFormat, scopedDatasetFile } from './scopedFiles';

/** Column sets kept per dataset version: a workspace's dashboards ask for a few each; the oldest beyond go. */
export const PROJECTIONS_KEPT = 8;

/** Where a workspace's projected files of one dataset live, one directory per source version. */
export function projectionsDir(dataDir: string, workspaceId: number, datasetId: string): string {
  return path.join(dataDir, 'projections', String(workspaceId), datasetId);
}

/** Keeps the newest `PROJECTIONS_KEPT` column sets of `versionDir`, by their last build. */
function keepNewest(versionDir: string): void {
  const entries = fs.existsSync(versionDir) ? fs.readdirSync(versionDir).filter((name) => !name.includes('.tmp-')) : [];
  const built = entries
    .map((name) => ({
      dir: path.join(versionDir, name),
      stat: fs.statSync(path.join(versionDir, name), { throwIfNoEntry: false }),
    }))
    .filter((entry) => entry.stat)
    .sort((a, b) => b.stat!.mtimeMs - a.stat!.mtimeMs);
  for (const { dir } of built.slice(PROJECTIONS_KEPT)) fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * A dataset file with only `columns` (sorted, distinct field ids; computed ones have no column and are skipped) and
 * every row, for a dashboard that reads only those, as Arrow or as a DuckDB file: built once per source version,
 * column set and format, with its own ETag. A build for a new source version removes the files of older versions.
 */
export function projectedDatasetFile(
  dataDir: string,
  workspaceId: number,
  datasetId: string,
  tableId: string,
  source: DatasetFile,
  columns: readonly string[],
  format: ScopedFormat = 'arrow',
): Promise<DatasetFile> {
  // The Arrow files keep the keys they had before DuckDB files existed.
  const named = format === 'arrow' ? columns : { columns, format };
  const key = createHash('sha256').update(JSON.stringify(named)).digest('hex').slice(0, 20);
  const datasetDir = projectionsDir(dataDir, workspaceId, datasetId);
  const versionDir = path.join(datasetDir, source.version);
  const dir = path.join(versionDir, key);
  return scopedDatasetFile(source, { tableId, fields: columns, format }, dir, (started) => {
    removeOlderEntries(datasetDir, versionDir, started);
    keepNewest(versionDir);
  });
}
