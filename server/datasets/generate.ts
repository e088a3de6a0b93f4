import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { catalogue } from '../../src/contracts/catalogue';
import { assertParams, generatorStatements, type GeneratorParams } from './sql';
import { writeDataset, type WrittenDataset } from './writer';

/** The demo size: about 100k rows in the largest file, generated in a few seconds. */
export const DEFAULT_ROWS = 100_000;
export const DEFAULT_SEED = 1;

export interface WorkspaceManifest {
  workspaceId: number;
  generatedAt: string;
  /** `auto` marks demo data generated on first need, refreshed when the day changes. */
  params: GeneratorParams & { auto?: boolean };
  datasets: Record<string, WrittenDataset>;
}

export const MANIFEST = 'manifest.json';

export function workspaceDatasetDir(dataDir: string, workspaceId: number): string {
  return path.join(dataDir, 'datasets', String(workspaceId));
}

export function readManifest(dir: string): WorkspaceManifest | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as WorkspaceManifest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Generates every catalogue dataset into `dir` (which must exist and be empty) and writes its manifest last. */
export async function generateInto(
  dir: string,
  workspaceId: number,
  params: WorkspaceManifest['params'],
): Promise<WorkspaceManifest> {
  assertParams(params);
  const instance = await DuckDBInstance.create(':memory:', {
    threads: '2',
    // Spill to disk rather than fail at 10^7 rows on a small machine.
    memory_limit: '4GB',
    temp_directory: path.join(dir, '.spill'),
    preserve_insertion_order: 'true',
  });
  const connection = await instance.connect();
  try {
    for (const statement of generatorStatements(params)) await connection.run(statement);
    const datasets: Record<string, WrittenDataset> = {};
    for (const dataset of catalogue) {
      datasets[dataset.id] = await writeDataset(connection, dataset.tableId, dir);
    }
    const manifest: WorkspaceManifest = { workspaceId, generatedAt: new Date().toISOString(), params, datasets };
    fs.writeFileSync(path.join(dir, MANIFEST), JSON.stringify(manifest, null, 2));
    return manifest;
  } finally {
    connection.closeSync();
    instance.closeSync();
    fs.rmSync(path.join(dir, '.spill'), { recursive: true, force: true });
  }
}

/**
 * (Re)generates a workspace's datasets: written to a temporary directory next to the final one, then renamed
 * into place, so a reader never sees a half-written file. Files already opened by a download stay readable.
 */
export async function generateWorkspaceDatasets(
  dataDir: string,
  workspaceId: number,
  params: WorkspaceManifest['params'],
): Promise<WorkspaceManifest> {
  assertParams(params);
  const dir = workspaceDatasetDir(dataDir, workspaceId);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const temporary = `${dir}.tmp-${randomBytes(6).toString('hex')}`;
  fs.mkdirSync(temporary);
  try {
    const manifest = await generateInto(temporary, workspaceId, params);
    const previous = `${dir}.old-${randomBytes(6).toString('hex')}`;
    const hadPrevious = fs.existsSync(dir);
    if (hadPrevious) fs.renameSync(dir, previous);
    fs.renameSync(temporary, dir);
    if (hadPrevious) fs.rmSync(previous, { recursive: true, force: true });
    return manifest;
  } catch (error) {
    fs.rmSync(temporary, { recursive: true, force: true });
    throw error;
  }
}

/** Today in UTC as 'YYYY-MM-DD': demo data always reach the day they were generated. */
export function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

const inFlight = new Map<string, Promise<WorkspaceManifest>>();

function generateOnce(dataDir: string, workspaceId: number): Promise<WorkspaceManifest> {
  const key = workspaceDatasetDir(dataDir, workspaceId);
  let promise = inFlight.get(key);
  if (!promise) {
    promise = generateWorkspaceDatasets(dataDir, workspaceId, {
      rows: DEFAULT_ROWS,
      seed: DEFAULT_SEED + workspaceId,
      endDate: todayUtc(),
      auto: true,
    }).finally(() => inFlight.delete(key));
    inFlight.set(key, promise);
  }
  return promise;
}

/**
 * The workspace's datasets, generated at the demo size on first need; concurrent callers share one generation.
 * Demo data generated here reach the day they were made: on a later day the current files are still served while
 * fresh ones are generated in the background, so dashboards keep showing recent days. Files made by
 * `npm run datasets` are left alone.
 */
export function ensureWorkspaceDatasets(dataDir: string, workspaceId: number): Promise<WorkspaceManifest> {
  const existing = readManifest(workspaceDatasetDir(dataDir, workspaceId));
  // Files written before a dataset joined the catalogue are regenerated rather than served incomplete.
  if (!existing || !catalogue.every((dataset) => existing.datasets[dataset.id])) {
    return generateOnce(dataDir, workspaceId);
  }
  if (existing.params.auto && existing.params.endDate < todayUtc()) {
    generateOnce(dataDir, workspaceId).catch((error: unknown) => {
      console.error(`Refreshing the demo datasets of workspace ${workspaceId} failed`, error);
    });
  }
  return Promise.resolve(existing);
}
