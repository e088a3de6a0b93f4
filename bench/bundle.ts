import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from '@playwright/test';
import webpack from 'webpack';
import { chromiumPath } from '../scripts/chromium';
import { freePort } from '../scripts/freePort';
import webpackConfig from '../webpack.config';
import { startServer, stopServer } from './benchServer';

/**
 * Prints the gzipped size of what the first page load needs (the initial chunks of the entry, and what a fresh
 * Chromium really downloads from the build to draw /login, against the goal of issue 20), and of each lazily
 * loaded chunk, from a production build into dist/.
 */
interface StatsChunk {
  id: string | number;
  names: string[];
  files: string[];
  initial: boolean;
  modules?: { name?: string; identifier?: string; size: number }[];
}

const dist = path.resolve('dist');
/** Issue 20: the first load of /login, gzipped. */
const GOAL_BYTES = 200 * 1024;

/** Builds for production with the project's own configuration and returns the chunk list. */
function build(): Promise<StatsChunk[]> {
  return new Promise((resolve, reject) => {
    webpack(webpackConfig({}, { mode: 'production' }), (error, stats) => {
      if (error || !stats) return reject(error ?? new Error('webpack gave no stats'));
      if (stats.hasErrors()) return reject(new Error(stats.toString('errors-only')));
      resolve(
        stats.toJson({
          all: false,
          chunks: true,
          chunkModules: true,
          ids: true,
        }).chunks as StatsChunk[],
      );
    });
  });
}

const gzip = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
const size = (file: string) => fs.statSync(path.join(dist, file)).size;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

interface Row {
  chunk: string;
  file: string;
  initial: boolean;
  raw: number;
  gz: number;
}

/** Prints a table of files, largest first; answers their gzipped total. */
function print(title: string, list: Row[]): number {
  console.log(`\n${title}`);
  console.log(`${'chunk'.padEnd(42)} ${'file'.padEnd(52)} ${'raw'.padStart(12)} ${'gzip'.padStart(12)}`);
  for (const row of [...list].sort((a, b) => b.gz - a.gz)) {
    console.log(
      `${row.chunk.slice(0, 42).padEnd(42)} ${row.file.slice(0, 52).padEnd(52)} ${kb(row.raw).padStart(12)} ${kb(row.gz).padStart(12)}`,
    );
  }
  const total = list.reduce((sum, row) => sum + row.gz, 0);
  console.log(`${'total'.padEnd(95)} ${kb(total).padStart(12)} gzip (${list.length} files)`);
  return total;
}

/** Names a chunk after its own name, or else after the package or folder most of its code comes from. */
function label(chunk: StatsChunk): string {
  if (chunk.names.length) return chunk.names.join(', ');
  const bySource = new Map<string, number>();
  for (const module of chunk.modules ?? []) {
    const name = module.name ?? module.identifier ?? '';
    const match = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(name);
    const source = match ? match[1] : 'app';
    bySource.set(source, (bySource.get(source) ?? 0) + module.size);
  }
  const top = [...bySource.entries()].sort((a, b) => b[1] - a[1]).slice(0, 2);
  return top.map(([source]) => source).join(' + ') || String(chunk.id);
}

/**
 * The files of the build a fresh Chromium downloads to draw /login: scripts, style sheets, fonts and icon files,
 * until the page shows its sign-in button with its icon drawn and the network is idle; and the bytes of their
 * bodies as the server sent them (its precompressed copies, scripts/precompress.ts, or compressed in transit).
 */
async function loginFiles(): Promise<{ files: string[]; sentBytes: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-bench-bundle-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  // As deployed with Google sign-in: /login then draws its Google button, with an icon (no request reaches Google).
  const server = await startServer(dataDir, port, { GOOGLE_CLIENT_ID: 'bench', GOOGLE_CLIENT_SECRET: 'bench' });
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    const files = new Set<string>();
    const sent: Promise<number>[] = [];
    page.on('requestfinished', (request) => {
      const { origin, pathname } = new URL(request.url());
      const file = decodeURIComponent(pathname).slice(1);
      if (origin !== baseURL || !file || !fs.existsSync(path.join(dist, file)) || files.has(file)) return;
      files.add(file);
      sent.push(request.sizes().then((sizes) => sizes.responseBodySize));
    });
    await page.goto(`${baseURL}/login`);
    await page.locator('svg[data-icon="log-in"]').waitFor({ timeout: 120_000 });
    await page.waitForLoadState('networkidle');
    return { files: [...files], sentBytes: (await Promise.all(sent)).reduce((sum, bytes) => sum + bytes, 0) };
  } finally {
    await browser.close();
    await stopServer(server);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const chunks = await build();
  const rows = chunks.flatMap((chunk) =>
    chunk.files
      .filter((file) => /\.(js|css)$/.test(file))
      .map((file) => ({ chunk: label(chunk), file, initial: chunk.initial, raw: size(file), gz: gzip(file) })),
  );
  const wasm = fs
    .readdirSync(path.join(dist, 'duckdb'))
    .filter((file) => file.endsWith('.wasm'))
    .map((file) => `duckdb/${file}`)
    .map((file) => ({ chunk: 'DuckDB-WASM module', file, initial: false, raw: size(file), gz: gzip(file) }));

  const initial = print(
    'Initial load (entry chunks)',
    rows.filter((row) => row.initial),
  );
  print(
    'Lazy chunks',
    rows.filter((row) => !row.initial),
  );
  print('Static assets loaded on demand', wasm);

  const byFile = new Map(rows.map((row) => [row.file, row.chunk]));
  const { files, sentBytes } = await loginFiles();
  const login = print(
    'What a fresh browser downloads from the build to draw /login',
    files.map((file) => ({
      chunk: byFile.get(file) ?? path.dirname(file),
      file,
      initial: false,
      raw: size(file),
      gz: gzip(file),
    })),
  );
  const ratio = (bytes: number) => `${kb(bytes)} / ${kb(GOAL_BYTES)} = ${(bytes / GOAL_BYTES).toFixed(2)}`;
  console.log(`\nGoal (issue 20): first load of /login ≤ ${kb(GOAL_BYTES)} gzipped`);
  console.log(`  /login, downloaded: ${ratio(login)}`);
  console.log(`  entry chunks only:  ${ratio(initial)}`);
  console.log(`  /login, as the server sent it (brotli where the browser accepts it): ${kb(sentBytes)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
