import path from 'node:path';
import { eq } from 'drizzle-orm';
import { catalogue, getCatalogueDataset, type CatalogueDataset } from '../../src/contracts/catalogue';
import { ensureWorkspaceDatasets, workspaceDatasetDir } from '../datasets/generate';
import { licenses, workspaces } from '../db/schema';
import type { Executor } from './db';
import { LazyLockedDuckDB } from './duckdb';
import { getWorkspaceFlags } from './flags';

/**
 * Which datasets a workspace may use:
 * - every listed catalogue dataset (campaign_metrics_by_send_date always, the fallback of spec 3);
 * - list_members only with the workspace flag 'list_members';
 * - workspaces only when the workspace belongs to an agency licence (its rows are the licence's workspaces);
 * - the engagement tables (never listed) only with the flag 'engagement', for the engagement page.
 */
export async function availableDatasets(
  db: Executor,
  workspaceId: number,
): Promise<{ listed: CatalogueDataset[]; all: CatalogueDataset[] }> {
  const flags = new Set(await getWorkspaceFlags(db, workspaceId));
  const [licence] = await db
    .select({ type: licenses.type })
    .from(workspaces)
    .innerJoin(licenses, eq(licenses.id, workspaces.licenseId))
    .where(eq(workspaces.id, workspaceId));
  const all = catalogue.filter((dataset) => {
    if (dataset.id === 'list_members') return flags.has('list_members');
    if (dataset.id === 'workspaces') return licence?.type === 'agency';
    if (isEngagementDataset(dataset.id)) return flags.has('engagement');
    return true;
  });
  return { listed: all.filter((dataset) => dataset.listed), all };
}

/** The engagement page's own tables: signed-in and flagged only, never served by a public or shared link. */
export function isEngagementDataset(datasetId: string): boolean {
  return datasetId.startsWith('engagement_');
}

/** The catalogue dataset if this workspace may use it, else undefined (the route answers 404). */
export async function findAvailableDataset(
  db: Executor,
  workspaceId: number,
  datasetId: string,
): Promise<CatalogueDataset | undefined> {
  if (!getCatalogueDataset(datasetId)) return undefined;
  const { all } = await availableDatasets(db, workspaceId);
  return all.find((dataset) => dataset.id === datasetId);
}

export interface DatasetFile {
  /** Uncompressed Arrow IPC stream. */
  arrowPath: string;
  /** The same stream gzip-compressed, for clients that accept gzip. */
  gzipPath: string;
  /** The same bytes brotli-compressed, when the file has such a copy (DuckDB dataset files). */
  brotli?: { path: string; bytes: number };
  parquetPath: string;
  version: string;
  arrowBytes: number;
  gzipBytes: number;
}

/** The files of a workspace's dataset, generated first if the workspace has none yet. */
export async function datasetFile(dataDir: string, workspaceId: number, datasetId: string): Promise<DatasetFile> {
  const manifest = await ensureWorkspaceDatasets(dataDir, workspaceId);
  const entry = manifest.datasets[datasetId];
  const dir = workspaceDatasetDir(dataDir, workspaceId);
  return {
    arrowPath: path.join(dir, `${datasetId}.arrow`),
    gzipPath: path.join(dir, `${datasetId}.arrow.gz`),
    parquetPath: path.join(dir, `${datasetId}.parquet`),
    version: entry.version,
    arrowBytes: entry.arrowBytes,
    gzipBytes: entry.arrowGzipBytes,
  };
}

/** Rows in a workspace's current file of a dataset, from the manifest written with it. */
export async function datasetRows(dataDir: string, workspaceId: number, datasetId: string): Promise<number> {
  return (await ensureWorkspaceDatasets(dataDir, workspaceId)).datasets[datasetId].rows;
}

/** A lookup answers within this time or fails: a request never waits on a stuck query. */
const QUERY_TIMEOUT_MS = 5_000;

/**
 * The server's own queries over Parquet files, on one locked-down in-memory DuckDB per server process (opened on
 * first use) that reaches only the data directory.
 */
export class ParquetQueries {
  private readonly duckdb: LazyLockedDuckDB;

  constructor(dataDir: string) {
    this.duckdb = new LazyLockedDuckDB([dataDir]);
  }

  /** A campaign's web-view URL, or null when the campaign is unknown or has none. */
  async campaignWebviewUrl(parquetPath: string, campaignId: string): Promise<string | null> {
    const rows = await this.duckdb.query(QUERY_TIMEOUT_MS, async (connection) => {
      const reader = await connection.runAndReadAll(
        `SELECT webview_url FROM read_parquet($path) WHERE campaign_id = $campaign AND webview_url <> '' LIMIT 1`,
        { path: parquetPath, campaign: campaignId },
      );
      return reader.getRowObjectsJS();
    });
    return rows.length ? String(rows[0].webview_url) : null;
  }

  async close(): Promise<void> {
    await this.duckdb.close();
  }
}
