import os from 'node:os';
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

const FRESH_MIB = 256;

/**
 * The machine's state, for the head and the end of a benchmark's report: its load, and what memory it has not
 * touched yet costs it. Some of these VMs hand freed pages back to their host, and then a page's first touch costs
 * tens of times more (bench/README.md, "Why this machine is slow"): a worker's start, a module's compilation and an
 * insert slow down with it, so start-up figures from such an hour cannot be set against a quick hour's.
 */
export function machineState(): string {
  const pages = new Uint8Array(FRESH_MIB * 1024 * 1024);
  const touchEachPage = () => {
    const start = performance.now();
    for (let at = 0; at < pages.length; at += 4096) pages[at] += 1;
    return performance.now() - start;
  };
  const first = touchEachPage();
  const again = touchEachPage();
  const load = os
    .loadavg()
    .map((average) => average.toFixed(1))
    .join(' / ');
  return `load average ${load}; ${FRESH_MIB} MiB of fresh memory, each page touched: ${ms(first)} (again: ${ms(again)})`;
}
