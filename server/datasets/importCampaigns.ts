import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { ensureWorkspaceDatasets, MANIFEST, type WorkspaceManifest, workspaceDatasetDir } from './generate';
import { describeTable, writeDataset } from './writer';

/** One imported campaign's values on its send day, under the campaign datasets' column names. */
export interface ImportedCampaignRow {
  campaign_id: string;
  campaign_name: string;
  integration_name: string;
  send_date: string;
  sent: number;
  sent_unique: number;
  delivered: number;
  open: number;
  opens: number;
  clicks_unique: number;
  clicks: number;
  transactions: number;
  revenue: number;
}

/** The datasets an import writes into; an imported send has all its events on the send day. */
const CAMPAIGN_TABLES = ['campaign_metrics_by_send_date', 'campaign_metrics_by_event_date'] as const;

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** The value of `column` for an imported row: what the provider gave, else what the column means when unknown. */
function valueFor(row: ImportedCampaignRow, column: { name: string; kind: string }): string {
  const given = (row as unknown as Record<string, string | number>)[column.name];
  if (column.name === 'event_date') return `DATE ${literal(row.send_date)}`;
  if (column.name === 'send_weekday') return `dayofweek(DATE ${literal(row.send_date)})::INTEGER`;
  if (column.name === 'send_month') return `month(DATE ${literal(row.send_date)})::INTEGER`;
  if (given !== undefined) {
    if (column.kind === 'date') return `DATE ${literal(String(given))}`;
    if (column.kind === 'string') return literal(String(given));
    return String(Number(given));
  }
  if (column.kind === 'string') return "''";
  if (column.kind === 'boolean') return 'false';
  return '0';
}

async function rewriteTables(dir: string, temporary: string, integrationName: string, rows: ImportedCampaignRow[]) {
  const instance = await DuckDBInstance.create(':memory:', { threads: '2', preserve_insertion_order: 'true' });
  const connection = await instance.connect();
  try {
    const written: WorkspaceManifest['datasets'] = {};
    for (const table of CAMPAIGN_TABLES) {
      const source = path.join(dir, `${table}.parquet`);
      await connection.run(`CREATE TABLE ${quote(table)} AS SELECT * FROM read_parquet(${literal(source)})`);
      // A new import replaces the integration's earlier rows, so importing twice does not count twice.
      await connection.run(`DELETE FROM ${quote(table)} WHERE integration_name = ${literal(integrationName)}`);
      const columns = await describeTable(connection, table);
      for (const row of rows) {
        const values = columns.map((column) => valueFor(row, column)).join(', ');
        await connection.run(`INSERT INTO ${quote(table)} VALUES (${values})`);
      }
      written[table] = await writeDataset(connection, table, temporary);
    }
    return written;
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * Writes `rows` into the workspace's campaign datasets as a new version (new files, new content hash, so a new
 * ETag): built in a directory beside the current one with the untouched datasets linked in, then swapped into place
 * as the generator does, so a reader never sees half an import.
 */
export async function importCampaignRows(
  dataDir: string,
  workspaceId: number,
  integrationName: string,
  rows: ImportedCampaignRow[],
): Promise<WorkspaceManifest> {
  const manifest = await ensureWorkspaceDatasets(dataDir, workspaceId);
  const dir = workspaceDatasetDir(dataDir, workspaceId);
  const temporary = `${dir}.tmp-${randomBytes(6).toString('hex')}`;
  fs.mkdirSync(temporary);
  try {
    const written = await rewriteTables(dir, temporary, integrationName, rows);
    for (const file of fs.readdirSync(dir)) {
      if (file === MANIFEST || fs.existsSync(path.join(temporary, file))) continue;
      fs.linkSync(path.join(dir, file), path.join(temporary, file));
    }
    const next: WorkspaceManifest = { ...manifest, datasets: { ...manifest.datasets, ...written } };
    fs.writeFileSync(path.join(temporary, MANIFEST), JSON.stringify(next, null, 2));
    const previous = `${dir}.old-${randomBytes(6).toString('hex')}`;
    fs.renameSync(dir, previous);
    fs.renameSync(temporary, dir);
    fs.rmSync(previous, { recursive: true, force: true });
    return next;
  } catch (error) {
    fs.rmSync(temporary, { recursive: true, force: true });
    throw error;
  }
}
