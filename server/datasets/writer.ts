import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import type { DuckDBConnection, DuckDBDataChunk } from '@duckdb/node-api';
import {
  Bool,
  type Data,
  DateDay,
  Dictionary,
  Field as ArrowField,
  Float64,
  Int16,
  Int32,
  Int8,
  makeData,
  RecordBatch,
  RecordBatchStreamWriter,
  Schema,
  Struct,
  Utf8,
  vectorFromArray,
  type DataType,
  type Vector,
} from 'apache-arrow';

/** Rows per Arrow record batch: large enough for fast scans, small enough to keep memory flat at 10^7 rows. */
const BATCH_ROWS = 65_536;
const EPOCH = `DATE '1970-01-01'`;

export interface WrittenDataset {
  rows: number;
  /** Content hash of the Arrow stream; the Parquet file holds the same rows, so it versions both. */
  version: string;
  arrowBytes: number;
  arrowGzipBytes: number;
  parquetBytes: number;
}

type ColumnKind = 'string' | 'date' | 'integer' | 'double' | 'boolean';

interface Column {
  name: string;
  kind: ColumnKind;
}

function kindOf(duckdbType: string): ColumnKind {
  switch (duckdbType) {
    case 'VARCHAR':
      return 'string';
    case 'DATE':
      return 'date';
    case 'INTEGER':
      return 'integer';
    case 'DOUBLE':
      return 'double';
    case 'BOOLEAN':
      return 'boolean';
    default:
      throw new Error(`Unsupported column type ${duckdbType}`);
  }
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/** Column names and kinds of a table, in table order. */
export async function describeTable(connection: DuckDBConnection, table: string): Promise<Column[]> {
  const reader = await connection.runAndReadAll(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $table ORDER BY ordinal_position`,
    { table },
  );
  return reader
    .getRowObjectsJS()
    .map((row) => ({ name: String(row.column_name), kind: kindOf(String(row.data_type)) }));
}

/**
 * Strings become global dictionaries (sorted distinct values); DuckDB computes each row's index through an ENUM
 * (see encodedSelectList), so JavaScript only copies integers. The ENUM types are dropped once the file is written.
 */
async function createDictionaries(connection: DuckDBConnection, table: string, columns: Column[]) {
  const dictionaries = new Map<string, Vector<Utf8>>();
  const enumTypes: string[] = [];
  for (const column of columns.filter((c) => c.kind === 'string')) {
    const typeName = quote(`dict_${table}_${column.name}`);
    enumTypes.push(typeName);
    await connection.run(
      `CREATE TYPE ${typeName} AS ENUM (SELECT DISTINCT ${quote(column.name)} FROM ${quote(table)} WHERE ${quote(column.name)} IS NOT NULL ORDER BY 1)`,
    );
    const values = await connection.runAndReadAll(`SELECT unnest(enum_range(NULL::${typeName})) AS v`);
    dictionaries.set(column.name, vectorFromArray(values.getColumnsJS()[0].map(String), new Utf8()));
  }
  return { dictionaries, enumTypes };
}

/** The columns as the Arrow stream stores them: strings as dictionary indexes, dates as days since the epoch. */
function encodedSelectList(table: string, columns: Column[]): string {
  return columns
    .map((column) => {
      const name = quote(column.name);
      if (column.kind === 'string') return `enum_code(${name}::${quote(`dict_${table}_${column.name}`)})::INTEGER`;
      if (column.kind === 'date') return `(${name} - ${EPOCH})::INTEGER`;
      return name;
    })
    .join(', ');
}

/**
 * Writes `table` as `<dir>/<table>.parquet` (for the server's own queries) and `<dir>/<table>.arrow`, an Arrow IPC
 * stream whose strings are dictionary-encoded (for browsers), plus `<table>.arrow.gz` served to clients that accept
 * gzip. The Arrow stream is built batch by batch from DuckDB chunks, so memory stays flat whatever the size.
 */
export async function writeDataset(connection: DuckDBConnection, table: string, dir: string): Promise<WrittenDataset> {
  const columns = await describeTable(connection, table);
  const parquetFile = path.join(dir, `${table}.parquet`);
  await connection.run(
    `COPY ${quote(table)} TO '${parquetFile.replace(/'/g, "''")}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 122880)`,
  );

  const { dictionaries, enumTypes } = await createDictionaries(connection, table, columns);
  const arrowFields = columns.map(
    (column, index) =>
      new ArrowField(column.name, arrowType(column, index, dictionaries.get(column.name)?.length ?? 0), false),
  );
  const schema = new Schema(arrowFields);

  const arrowFile = path.join(dir, `${table}.arrow`);
  const gzipFile = `${arrowFile}.gz`;
  const hash = createHash('sha256');
  const writer = new RecordBatchStreamWriter();
  const byteStream = writer.toNodeStream();
  byteStream.on('data', (chunk: Uint8Array) => hash.update(chunk));
  // The plain and the gzip file are written from the same bytes at once; compression runs off the main thread.
  const written = Promise.all([
    pipeline(byteStream, fs.createWriteStream(arrowFile)),
    pipeline(byteStream, zlib.createGzip({ level: 6 }), fs.createWriteStream(gzipFile)),
  ]);

  // Table order, the order the Parquet file has too: the instance preserves insertion order, so no sort is needed.
  const result = await connection.stream(`SELECT ${encodedSelectList(table, columns)} FROM ${quote(table)}`);
  let rows = 0;
  let pending: DuckDBDataChunk[] = [];
  let pendingRows = 0;
  const flush = async () => {
    if (pendingRows === 0) return;
    writer.write(toRecordBatch(schema, columns, dictionaries, pending, pendingRows));
    rows += pendingRows;
    pending = [];
    pendingRows = 0;
    // Let the file streams drain before building the next batch.
    await new Promise((resolve) => setImmediate(resolve));
  };
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    pending.push(chunk);
    pendingRows += chunk.rowCount;
    if (pendingRows >= BATCH_ROWS) await flush();
  }
  await flush();
  if (rows === 0) writer.write(toRecordBatch(schema, columns, dictionaries, [], 0));
  writer.finish();
  await written;
  for (const typeName of enumTypes) await connection.run(`DROP TYPE ${typeName}`);

  return {
    rows,
    version: hash.digest('hex').slice(0, 20),
    arrowBytes: fs.statSync(arrowFile).size,
    arrowGzipBytes: fs.statSync(gzipFile).size,
    parquetBytes: fs.statSync(parquetFile).size,
  };
}

/** The narrowest signed index type for a dictionary: most columns have a few dozen values, not millions. */
function indexType(size: number): Int8 | Int16 | Int32 {
  if (size <= 127) return new Int8();
  if (size <= 32_767) return new Int16();
  return new Int32();
}

function arrowType(column: Column, index: number, dictionarySize: number): DataType {
  switch (column.kind) {
    case 'string':
      return new Dictionary(new Utf8(), indexType(dictionarySize), index, false);
    case 'date':
      return new DateDay();
    case 'integer':
      return new Int32();
    case 'double':
      return new Float64();
    case 'boolean':
      return new Bool();
  }
}

function toRecordBatch(
  schema: Schema,
  columns: Column[],
  dictionaries: Map<string, Vector<Utf8>>,
  chunks: DuckDBDataChunk[],
  length: number,
): RecordBatch {
  const children = columns.map((column, columnIndex): Data => {
    const type = schema.fields[columnIndex].type;
    if (column.kind === 'double') {
      const values = new Float64Array(length);
      copyColumn(chunks, columnIndex, column.name, (offset, value) => (values[offset] = value as number));
      return makeData({ type: type as Float64, length, nullCount: 0, data: values });
    }
    if (column.kind === 'boolean') {
      const bits = new Uint8Array(Math.ceil(length / 8));
      copyColumn(chunks, columnIndex, column.name, (offset, value) => {
        if (value) bits[offset >> 3] |= 1 << (offset & 7);
      });
      return makeData({ type: type as Bool, length, nullCount: 0, data: bits });
    }
    if (column.kind === 'string') {
      const dictionaryType = type as Dictionary<Utf8, Int8 | Int16 | Int32>;
      const indices = new dictionaryType.indices.ArrayType(length);
      copyColumn(chunks, columnIndex, column.name, (offset, value) => (indices[offset] = value as number));
      return makeData({
        type: dictionaryType,
        length,
        nullCount: 0,
        data: indices,
        dictionary: dictionaries.get(column.name),
      });
    }
    const values = new Int32Array(length);
    copyColumn(chunks, columnIndex, column.name, (offset, value) => (values[offset] = value as number));
    if (column.kind === 'date') return makeData({ type: type as DateDay, length, nullCount: 0, data: values });
    return makeData({ type: type as Int32, length, nullCount: 0, data: values });
  });
  return new RecordBatch(schema, makeData({ type: new Struct(schema.fields), length, nullCount: 0, children }));
}

function copyColumn(
  chunks: DuckDBDataChunk[],
  columnIndex: number,
  name: string,
  set: (offset: number, value: unknown) => void,
): void {
  let offset = 0;
  for (const chunk of chunks) {
    const vector = chunk.getColumnVector(columnIndex);
    // rowCount is a native call: read it once per chunk, not once per value.
    const rowCount = chunk.rowCount;
    for (let row = 0; row < rowCount; row++) {
      const value = vector.getItem(row);
      if (value === null) throw new Error(`Column ${name} has a missing value; the generator never writes nulls`);
      set(offset++, value);
    }
  }
}
