import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { tableToIPC } from 'apache-arrow';
import { openNodeDuckdbInstance } from '../src/engine/testing/nodeDuckdb';
import { type SyncConnection, POLL_SLICE_MS, createEngineCore } from '../src/workers/engineCore';
import { BENCH_DATASET, dashboardQueries } from './engineDashboard';

/**
 * npx tsx bench/enginePolling.ts [-- --rows 1000000 --repeats 5]
 * What running statements as pending queries (polled, yielding so a cancel can arrive) costs against the plain
 * synchronous query, on the 12-widget dashboard's SQL and the benchmark's data (`npm run bench:engine` writes it).
 * One DuckDB-WASM instance (Node blocking bundle): each query runs in turn through each path, repeated; medians.
 */
const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    repeats: { type: 'string', default: '5' },
    'end-date': { type: 'string', default: '2026-11-21' },
  },
});
const repeats = Number(values.repeats);
const ENDLESS = `SELECT COUNT(*) FROM "${BENCH_DATASET}" a, range(1000000) b WHERE b.range > 0`;
const file = path.resolve('var/bench', values.rows, 'datasets/1', `${BENCH_DATASET}.arrow`);

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main(): Promise<void> {
  if (!fs.existsSync(file)) throw new Error(`No ${file}: run npm run bench:engine -- --rows ${values.rows} first`);
  const { db, conn } = await openNodeDuckdbInstance();
  const module = (db as unknown as { mod: { HEAPU8: Uint8Array } }).mod;
  const opened = { conn: conn as SyncConnection, version: db.getVersion(), heapBytes: () => module.HEAPU8.byteLength };
  // Both cores share the one instance, so both paths read the same table.
  const paths = {
    [`pending, yield every ${POLL_SLICE_MS} ms`]: createEngineCore(async () => opened),
    'pending, yield after every poll': createEngineCore(async () => opened, undefined, 0),
  };
  const core = Object.values(paths)[0];
  const { rows } = await core.load(BENCH_DATASET, 'bench', new Uint8Array(fs.readFileSync(file)));
  const queries = dashboardQueries(values['end-date']);
  const names = ['synchronous query', ...Object.keys(paths)];
  const runs: Record<string, Record<string, number[]>> = Object.fromEntries(
    queries.map((q) => [q.name, Object.fromEntries(names.map((name) => [name, [] as number[]]))]),
  );
  for (let i = 0; i < repeats; i++) {
    for (const q of queries) {
      let started = performance.now();
      tableToIPC(conn.query(q.sql), 'stream');
      runs[q.name]['synchronous query'].push(performance.now() - started);
      for (const [name, engine] of Object.entries(paths)) {
        started = performance.now();
        await engine.query(q.sql, `${name}-${i}`);
        runs[q.name][name].push(performance.now() - started);
      }
    }
  }
  console.log(`${rows} rows, ${repeats} repeats, medians in ms`);
  console.log(`| query | ${names.join(' | ')} |`);
  const totals = names.map(() => 0);
  for (const q of queries) {
    const cells = names.map((name, index) => {
      const value = median(runs[q.name][name]);
      totals[index] += value;
      return value.toFixed(0);
    });
    console.log(`| ${q.name} (${q.kind}) | ${cells.join(' | ')} |`);
  }
  console.log(`| sum of medians | ${totals.map((total) => total.toFixed(0)).join(' | ')} |`);
  console.log(`| ratio to synchronous | ${totals.map((total) => (total / totals[0]).toFixed(3)).join(' | ')} |`);

  // How soon a cancel stops a statement that would run for hours: one poll plus one yield at most.
  const latencies: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const endless = core.query(ENDLESS, `endless-${i}`).then(
      (): number => {
        throw new Error('The endless query answered');
      },
      () => performance.now(),
    );
    // The cancel is due in 200 ms but runs only once the statement yields: measured from when it was due.
    const due = performance.now() + 200;
    setTimeout(() => void core.cancel(`endless-${i}`), 200);
    latencies.push((await endless) - due);
  }
  console.log(
    `cancel → AbortError: median ${median(latencies).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
