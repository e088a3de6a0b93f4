import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { chromium } from '@playwright/test';
import { chromiumPath } from '../scripts/chromium';
import { TOTAL_LENGTH_HEADER } from '../src/contracts/dataModel';
import { BENCH_DIR, ensureBenchData, machineState, median, ms } from './benchData';
import { compileHarness } from './compileHarness';
import { engineHarnessConfig } from './engine.webpack.config';
import { BENCH_DATASET, type BenchQuery, dashboardQueries } from './engineDashboard';
import { type HarnessInput, type HarnessResult } from './harness/engine';

/**
 * npm run bench:engine [-- --rows 1000000,10000000 --sizes 1,2,4 --repeats 3]
 * The 12-widget dashboard's SQL in headless Chromium on the production pool (sizes 1, 2, 4), and the same SQL
 * in native DuckDB (threads=1 and all) on the same rows; prints the table of bench/README.md.
 */
const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000,10000000' },
    sizes: { type: 'string', default: '1,2,4' },
    repeats: { type: 'string', default: '3' },
    'end-date': { type: 'string', default: '2026-11-21' },
  },
});
const rowsList = values.rows.split(',').map(Number);
const sizes = values.sizes.split(',').map(Number);
const repeats = Number(values.repeats);
const endDate = values['end-date'];

const harnessDir = path.join(__dirname, 'out/engine-harness');

const mib = (x: number) => `${(x / 1024 / 1024).toFixed(0)} MiB`;

/** Serves the harness and the Arrow files with the total-length header, as the app's server does. */
function serve(dataDirs: Map<number, string>): Promise<http.Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const data = /^\/data\/(\d+)\/([a-z_]+\.arrow)$/.exec(url.pathname);
    const file = data
      ? path.join(dataDirs.get(Number(data[1])) ?? '/nonexistent', data[2])
      : path.join(harnessDir, url.pathname === '/' ? 'index.html' : path.normalize(url.pathname));
    if (!file.startsWith(data ? BENCH_DIR : harnessDir) || !fs.existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    const size = fs.statSync(file).size;
    response.writeHead(200, {
      'Content-Type': types[path.extname(file)] ?? 'application/octet-stream',
      'Content-Length': String(size),
      [TOTAL_LENGTH_HEADER]: String(size),
      ETag: `"${size}"`,
    });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface NativeResult {
  threads: number;
  loadMs: number;
  perQueryMs: Record<string, number>;
  sequentialMs: number;
}

async function native(dir: string, queries: BenchQuery[], threads: number): Promise<NativeResult> {
  const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const connection = await instance.connect();
  try {
    const parquet = path.join(dir, `${BENCH_DATASET}.parquet`).replace(/'/g, "''");
    let started = performance.now();
    await connection.run(`CREATE TABLE "${BENCH_DATASET}" AS SELECT * FROM read_parquet('${parquet}')`);
    const loadMs = performance.now() - started;
    const perQueryMs: Record<string, number> = {};
    for (const query of queries) {
      const times: number[] = [];
      for (let i = 0; i < repeats; i++) {
        started = performance.now();
        await connection.runAndReadAll(query.sql);
        times.push(performance.now() - started);
      }
      perQueryMs[query.name] = median(times);
    }
    const sequential: number[] = [];
    for (let i = 0; i < repeats; i++) {
      started = performance.now();
      for (const query of queries) await connection.runAndReadAll(query.sql);
      sequential.push(performance.now() - started);
    }
    return { threads, loadMs, perQueryMs, sequentialMs: median(sequential) };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * The query whose copies make the balanced burst: a series per dimension, the dashboard's longest (bench/README.md),
 * so that a burst's fixed costs (messages, the page's thread) weigh least.
 */
const balancedQuery = (queries: BenchQuery[]) => queries.find((q) => q.kind === 'timeSeriesByDimension') ?? queries[0];

function report(rows: number, queries: BenchQuery[], wasm: HarnessResult, natives: NativeResult[]) {
  const bySize = new Map(wasm.sizes.map((result) => [result.size, result]));
  const one = bySize.get(1);
  console.log(`\n## ${rows.toLocaleString('en')} rows (${BENCH_DATASET}, Arrow ${mib(wasm.bytes)})\n`);
  console.log(
    '| scenario | ' +
      [...sizes.map((s) => `pool-${s}`), ...natives.map((n) => `native t=${n.threads}`)].join(' | ') +
      ' |',
  );
  console.log('|---|' + [...sizes, ...natives].map(() => '---:').join('|') + '|');
  const row = (label: string, cells: string[]) => console.log(`| ${label} | ${cells.join(' | ')} |`);
  row('12-widget burst (median)', [
    ...sizes.map((s) => ms(median(bySize.get(s)?.burstMs ?? [NaN]))),
    ...natives.map((n) => `${ms(n.sequentialMs)} (sequential)`),
  ]);
  row('first burst after cold start', [
    ...sizes.map((s) => ms(bySize.get(s)?.firstBurstMs ?? NaN)),
    ...natives.map(() => ''),
  ]);
  row('cold start, data in memory', [
    ...sizes.map((s) => ms(bySize.get(s)?.coldStartMs ?? NaN)),
    ...natives.map((n) => `${ms(n.loadMs)} (load)`),
  ]);
  row('cold start with download', [
    ...sizes.map((s) => ms(wasm.downloadMs + (bySize.get(s)?.coldStartMs ?? NaN))),
    ...natives.map(() => ''),
  ]);
  // Each round ran every pool's bursts one after the other (harness/engine.ts): a ratio is the median of the
  // rounds' ratios.
  const roundRatios = (size: number, of: 'burstMs' | 'balancedBurstMs') =>
    (bySize.get(size)?.[of] ?? []).map((burstMs, round) => burstMs / (one?.[of][round] ?? NaN));
  const ratioRows = (label: string, of: 'burstMs' | 'balancedBurstMs') => {
    row(label, sizes.map((s) => median(roundRatios(s, of)).toFixed(2)).concat(natives.map(() => '')));
    row(
      '… by round',
      sizes
        .map((s) =>
          roundRatios(s, of)
            .map((ratio) => ratio.toFixed(2))
            .join(' '),
        )
        .concat(natives.map(() => '')),
    );
  };
  ratioRows('ratio burst pool-N / pool-1', 'burstMs');
  ratioRows(`ratio, balanced burst (${queries.length} × ${balancedQuery(queries).name})`, 'balancedBurstMs');
  row('memory per worker (wasm heap)', [
    ...sizes.map((s) => (bySize.get(s)?.workers ?? []).map((w) => mib(w.wasmHeapBytes)).join(', ')),
    ...natives.map(() => ''),
  ]);
  if (one) {
    console.log(
      '\n| query | wasm pool-1 | ' + natives.map((n) => `native t=${n.threads}`).join(' | ') + ' | wasm / native t=1 |',
    );
    console.log('|---|---:|' + natives.map(() => '---:').join('|') + '|---:|');
    const ratios: number[] = [];
    for (const query of queries) {
      const wasmMs = median(one.perQueryMs[query.name]);
      const ratio = wasmMs / natives[0].perQueryMs[query.name];
      ratios.push(ratio);
      console.log(
        `| ${query.name} (${query.kind}) | ${ms(wasmMs)} | ${natives.map((n) => ms(n.perQueryMs[query.name])).join(' | ')} | ${ratio.toFixed(2)} |`,
      );
    }
    console.log(`\nwasm single worker / native threads=1, median over query kinds: ${median(ratios).toFixed(2)}`);
  }
}

async function main() {
  console.log(
    `Machine: ${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${mib(os.totalmem())} RAM, ${os.platform()} ${os.release()}`,
  );
  const dirs = new Map<number, string>();
  for (const rows of rowsList) dirs.set(rows, await ensureBenchData(rows, endDate));
  await compileHarness(engineHarnessConfig());
  const server = await serve(dirs);
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--js-flags=--max-old-space-size=8192'],
  });
  console.log(`Chromium ${browser.version()}`);
  console.log(`Machine at the start: ${machineState()}`);
  try {
    const queries = dashboardQueries(endDate);
    for (const rows of rowsList) {
      const page = await browser.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') console.error(`[browser] ${message.text()}`);
      });
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await page.waitForFunction(() => document.title === 'engine bench ready');
      const input: HarnessInput = {
        url: `/data/${rows}/${BENCH_DATASET}.arrow`,
        table: BENCH_DATASET,
        queries,
        balanced: queries.map((_, i) => ({ name: `${i}`, sql: `${balancedQuery(queries).sql} /* copy ${i} */` })),
        sizes,
        repeats,
      };
      const wasm = await page.evaluate(
        (arg) => (window as unknown as { engineBench(i: HarnessInput): Promise<HarnessResult> }).engineBench(arg),
        input,
      );
      await page.close();
      const natives = [
        await native(dirs.get(rows)!, queries, 1),
        await native(dirs.get(rows)!, queries, os.cpus().length),
      ];
      report(rows, queries, wasm, natives);
      fs.mkdirSync(path.join(__dirname, 'out'), { recursive: true });
      fs.writeFileSync(
        path.join(__dirname, `out/engine-${rows}.json`),
        JSON.stringify({ rows, wasm, natives }, null, 2),
      );
    }
    console.log(`\nMachine at the end: ${machineState()}`);
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
