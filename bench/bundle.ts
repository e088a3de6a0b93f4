import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import webpack from 'webpack';
import webpackConfig from '../webpack.config';

/**
 * Prints the gzipped size of what the first page load needs (the initial chunks of the entry)
 * and of each lazily loaded chunk, from the production build in dist/ and its stats file.
 */
interface StatsChunk {
  id: string | number;
  names: string[];
  files: string[];
  initial: boolean;
  modules?: { name?: string; identifier?: string; size: number }[];
}

const dist = path.resolve('dist');

/** Builds for production with the project's own configuration and returns the chunk list. */
function build(): Promise<StatsChunk[]> {
  return new Promise((resolve, reject) => {
    webpack(webpackConfig({}, { mode: 'production' }), (error, stats) => {
      if (error || !stats) return reject(error ?? new Error('webpack gave no stats'));
      if (stats.hasErrors()) return reject(new Error(stats.toString('errors-only')));
      resolve(stats.toJson({ all: false, chunks: true, chunkModules: true, ids: true }).chunks as StatsChunk[]);
    });
  });
}

const gzip = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

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

async function main() {
  const chunks = await build();
  const rows = chunks.flatMap((chunk) =>
    chunk.files
      .filter((file) => /\.(js|css)$/.test(file))
      .map((file) => ({
        chunk: label(chunk),
        file,
        initial: chunk.initial,
        raw: fs.statSync(path.join(dist, file)).size,
        gz: gzip(file),
      })),
  );
  const wasm = fs
    .readdirSync(path.join(dist, 'duckdb'))
    .filter((file) => file.endsWith('.wasm'))
    .map((file) => ({
      chunk: 'DuckDB-WASM module',
      file: `duckdb/${file}`,
      initial: false,
      raw: fs.statSync(path.join(dist, 'duckdb', file)).size,
      gz: gzip(`duckdb/${file}`),
    }));

  const print = (title: string, list: typeof rows) => {
    console.log(`\n${title}`);
    console.log(`${'chunk'.padEnd(42)} ${'file'.padEnd(52)} ${'raw'.padStart(12)} ${'gzip'.padStart(12)}`);
    for (const row of list.sort((a, b) => b.gz - a.gz)) {
      console.log(
        `${row.chunk.slice(0, 42).padEnd(42)} ${row.file.slice(0, 52).padEnd(52)} ${kb(row.raw).padStart(12)} ${kb(row.gz).padStart(12)}`,
      );
    }
    const total = list.reduce((sum, row) => sum + row.gz, 0);
    console.log(`${'total'.padEnd(95)} ${kb(total).padStart(12)} gzip`);
  };

  print(
    'Initial load (entry chunks)',
    rows.filter((row) => row.initial),
  );
  print(
    'Lazy chunks',
    rows.filter((row) => !row.initial),
  );
  print('Static assets loaded on demand', wasm);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
