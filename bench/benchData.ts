import path from 'node:path';
import { generateWorkspaceDatasets, readManifest, workspaceDatasetDir } from '../server/datasets/generate';

/** Where the benchmarks keep their generated rows (gitignored): var/bench/<rows>/. */
export const BENCH_DIR = path.resolve('var/bench');

/**
 * The demo datasets at `rows` rows (seed 2, ending on `endDate`), generated on first use and shared by every
 * benchmark; answers the directory of their files. `name` keeps a second set apart (var/bench/<name>/).
 */
export async function ensureBenchData(rows: number, endDate: string, name = String(rows)): Promise<string> {
  const dataDir = path.join(BENCH_DIR, name);
  const dir = workspaceDatasetDir(dataDir, 1);
  const manifest = readManifest(dir);
  if (!manifest || manifest.params.rows !== rows || manifest.params.endDate !== endDate) {
    console.log(`Generating ${rows} rows into var/bench/${name} …`);
    await generateWorkspaceDatasets(dataDir, 1, { rows, seed: 2, endDate });
  }
  return dir;
}

export const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export const ms = (x: number) => `${x.toFixed(0)} ms`;
