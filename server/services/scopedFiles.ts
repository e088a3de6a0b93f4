import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { type DuckDBConnection } from '@duckdb/node-api';
import { writeDataset } from '../datasets/writer';
import { type DatasetFile } from './datasets';
import { literal, openLockedDuckDB, withTimeout } from './duckdb';

/** The name of the whole dataset in a scoped file's conditions (public rows' outliers are measured against it). */
export const SOURCE_TABLE = '__dataset';
/** A scoped file is built within this time or not at all (the request fails; the next one tries again). */
export const SCOPED_BUILD_TIMEOUT_MS = 30_000;
export const quoteIdentifier = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/**
 * How a scoped file stores its rows: an Arrow IPC stream (what every reader of datasets gets), or a DuckDB database
 * file, which the app's engine attaches as it is instead of inserting Arrow into a table of its own.
 */
export type ScopedFormat = 'arrow' | 'duckdb';

/** What a scoped file holds of its source: these fields (those without a stored column are skipped), these rows. */
export interface FileScope {
  tableId: string;
  fields: readonly string[];
  /** A SQL condition over SOURCE_TABLE; every row when omitted. */
  condition?: string;
  format?: ScopedFormat;
  /** The first day of the rows a projected file keeps, and the date field it is of (the condition says the same). */
  since?: string;
  dateField?: string;
}

/**
 * The storage version DuckDB-WASM 1.32 (DuckDB 1.4) reads: the server's newer DuckDB would otherwise write its own.
 * Checked by scopedFiles.duckdb.test.ts, which reads a file written here with the Node build of DuckDB-WASM.
 */
const WASM_STORAGE_VERSION = 'v1.0.0';
const FILE_DATABASE = 'scoped_file';

interface ScopedManifest {
  version: string;
  arrowBytes: number;
  gzipBytes: number;
  /** What the file was built from, so it can be built again for the source's next version (absent before). */
  fields?: string[];
  format?: ScopedFormat;
  since?: string;
  dateField?: string;
}

const inFlight = new Map<string, Promise<void>>();

/** Removes the entries of `parent` other than `keep` last changed before `before` (not those being built). */
export function removeOlderEntries(parent: string, keep: string, before: number): void {
  // A save may remove the whole directory meanwhile: then there is nothing left to clean.
  const entries = fs.existsSync(parent) ? fs.readdirSync(parent) : [];
  for (const entry of entries) {
    const other = path.join(parent, entry);
    if (other === keep || other.includes('.tmp-') || inFlight.has(other)) continue;
    const stat = fs.statSync(other, { throwIfNoEntry: false });
    if (stat && stat.mtimeMs < before) fs.rmSync(other, { recursive: true, force: true });
  }
}

/**
 * Brotli at quality 5: at 10^6 rows it took a DuckDB file's 16 text and date columns to 0.38 MB against gzip-6's
 * 0.78 MB (124 against 220 ms), and all 32 columns to 8.4 against 10.3 MB (1.9 against 1.6 s); bench/README.md.
 */
const brotliOptions = (size: number): zlib.BrotliOptions => ({
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size },
});

const compressing = new Map<string, Promise<void>>();

/**
 * Starts writing the brotli copy of a built DuckDB file beside it (the caller found none) unless it is being
 * written: the request that waited for the build gets the gzip copy, later ones the smaller brotli copy once it is
 * there. A copy that fails (its directory removed by a newer build meanwhile) is left out, and the gzip copy serves.
 */
function ensureBrotliCopy(file: string): void {
  if (compressing.has(file)) return;
  const partial = `${file}.br.tmp-${randomBytes(6).toString('hex')}`;
  const size = fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  const work = pipeline(
    fs.createReadStream(file),
    zlib.createBrotliCompress(brotliOptions(size)),
    fs.createWriteStream(partial),
  )
    .then(() => fs.renameSync(partial, `${file}.br`))
    .catch(() => fs.rmSync(partial, { force: true }))
    .finally(() => compressing.delete(file));
  compressing.set(file, work);
}

/** Resolves once the brotli copies being written now are written (or given up). */
export async function brotliCopiesWritten(): Promise<void> {
  await Promise.all([...compressing.values()]);
}

/**
 * Writes the rows of `select` as table `table` of a DuckDB database file in `dir`, and its gzip copy; its version is
 * the file's content hash. Straight from the source into the file: a table in memory first cost 7 of 29 s at 10^7
 * rows (bench/README.md).
 */
async function writeDuckdbFile(
  connection: DuckDBConnection,
  table: string,
  select: string,
  dir: string,
): Promise<ScopedManifest> {
  const file = path.join(dir, `${table}.duckdb`);
  await connection.run(`ATTACH ${literal(file)} AS ${FILE_DATABASE} (STORAGE_VERSION '${WASM_STORAGE_VERSION}')`);
  try {
    await connection.run(`CREATE TABLE ${FILE_DATABASE}.${quoteIdentifier(table)} AS ${select}`);
  } finally {
    // Detaching checkpoints: the file is complete (no write-ahead log beside it) once this returns.
    await connection.run(`DETACH ${FILE_DATABASE}`);
  }
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  await pipeline(fs.createReadStream(file), zlib.createGzip({ level: 6 }), fs.createWriteStream(`${file}.gz`));
  return {
    version: hash.digest('hex').slice(0, 20),
    arrowBytes: fs.statSync(file).size,
    gzipBytes: fs.statSync(`${file}.gz`).size,
  };
}

async function build(source: DatasetFile, scope: FileScope, dir: string, prune: (started: number) => void) {
  const started = Date.now();
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const temporary = `${dir}.tmp-${randomBytes(6).toString('hex')}`;
  fs.mkdirSync(temporary);
  // The new files' directory to write (and spill) in, the source directory to read: nothing else.
  const { instance, connection } = await openLockedDuckDB([temporary, path.dirname(source.parquetPath)]);
  try {
    const written = await withTimeout(connection, SCOPED_BUILD_TIMEOUT_MS, async () => {
      await connection.run(
        `CREATE VIEW ${quoteIdentifier(SOURCE_TABLE)} AS SELECT * FROM read_parquet(${literal(source.parquetPath)})`,
      );
      const stored = new Set(
        (await connection.runAndReadAll(`DESCRIBE ${quoteIdentifier(SOURCE_TABLE)}`))
          .getRowObjectsJS()
          .map((row) => String(row.column_name)),
      );
      // Computed fields (ratios, custom fields) have no column: the browser computes them from the stored ones.
      const columns = scope.fields.filter((id) => stored.has(id)).map(quoteIdentifier);
      const select =
        `SELECT ${columns.join(', ')} FROM ${quoteIdentifier(SOURCE_TABLE)}` +
        (scope.condition === undefined ? '' : ` WHERE ${scope.condition}`);
      if (scope.format === 'duckdb') return writeDuckdbFile(connection, scope.tableId, select, temporary);
      await connection.run(`CREATE TABLE ${quoteIdentifier(scope.tableId)} AS ${select}`);
      const arrow = await writeDataset(connection, scope.tableId, temporary);
      return { version: arrow.version, arrowBytes: arrow.arrowBytes, gzipBytes: arrow.arrowGzipBytes };
    });
    const manifest: ScopedManifest = {
      ...written,
      fields: [...scope.fields],
      format: scope.format ?? 'arrow',
      ...(scope.since && { since: scope.since, dateField: scope.dateField }),
    };
    fs.writeFileSync(path.join(temporary, 'manifest.json'), JSON.stringify(manifest));
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(temporary, dir);
    // Open downloads keep their file handles, so older files can go at once.
    prune(started);
  } finally {
    connection.closeSync();
    instance.closeSync();
    fs.rmSync(temporary, { recursive: true, force: true });
  }
}

/** What the file in `dir` was built with; null when none is built there or it does not say. */
export function builtScope(
  dir: string,
): { fields: string[]; format: ScopedFormat; since?: string; dateField?: string } | null {
  let manifest: ScopedManifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as ScopedManifest;
  } catch {
    // Not built, or removed meanwhile by a newer version's build.
    return null;
  }
  const { fields, format, since, dateField } = manifest;
  return fields && format ? { fields, format, ...(since && { since, dateField }) } : null;
}

/**
 * The file of `scope` in `dir`: built with the locked-down native DuckDB from the source's Parquet file on first
 * use and kept (its ETag is its content's hash); concurrent requests share one build. After a build, `prune`
 * removes what the new file makes obsolete (given the build's start time).
 */
export async function scopedDatasetFile(
  source: DatasetFile,
  scope: FileScope,
  dir: string,
  prune: (started: number) => void,
): Promise<DatasetFile> {
  const manifestPath = path.join(dir, 'manifest.json');
  if (!fs.existsSync(manifestPath)) {
    let promise = inFlight.get(dir);
    if (!promise) {
      promise = build(source, scope, dir, prune).finally(() => inFlight.delete(dir));
      inFlight.set(dir, promise);
    }
    await promise;
  }
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as ScopedManifest;
  // A DuckDB file is sent as the Arrow file is: its path and its gzip copy's take the Arrow file's place.
  const arrowPath = path.join(dir, `${scope.tableId}.${scope.format === 'duckdb' ? 'duckdb' : 'arrow'}`);
  const brotliBytes = fs.statSync(`${arrowPath}.br`, { throwIfNoEntry: false })?.size;
  if (scope.format === 'duckdb' && brotliBytes === undefined) ensureBrotliCopy(arrowPath);
  return {
    arrowPath,
    gzipPath: `${arrowPath}.gz`,
    brotli: brotliBytes === undefined ? undefined : { path: `${arrowPath}.br`, bytes: brotliBytes },
    parquetPath: path.join(dir, `${scope.tableId}.parquet`),
    version: manifest.version,
    arrowBytes: manifest.arrowBytes,
    gzipBytes: manifest.gzipBytes,
  };
}
