import { DataType, Precision, type Vector, tableFromIPC } from 'apache-arrow';
import { transfer } from 'comlink';
import { type Locale } from '../../contracts/common';
import { type Cell, vectorCells } from '../../engine/cells';
import { type ExportColumn, type ExportWriter, csvWriter, xlsxWriter } from './exportFile';

export type ExportFormat = 'csv' | 'xlsx';

/** Where an export's time went, in ms: Arrow to columns, rows into the file, the file's bytes (zip for xlsx). */
export interface ExportTimings {
  rows: number;
  workbook: number;
  serialise: number;
}

/** Rows written between two progress reports. */
const PROGRESS_ROWS = 5000;

const rowsOf = (values: ArrayLike<Cell>, from: number, to: number): ArrayLike<Cell> =>
  ArrayBuffer.isView(values) ? (values as Float64Array).subarray(from, to) : (values as Cell[]).slice(from, to);

/**
 * A column of doubles as one Float64Array, NaN where a value is null (both writers leave a NaN cell empty, as they
 * leave a null one); any other column as `vectorCells` reads it. A rate column with nulls would otherwise be read
 * value by value: about ten times slower.
 */
function columnCells(vector: Vector): ArrayLike<Cell> {
  if (vector.nullCount === 0 || !DataType.isFloat(vector.type) || vector.type.precision !== Precision.DOUBLE)
    return vectorCells(vector);
  const values = Float64Array.from(vector.toArray() as Float64Array);
  let start = 0;
  for (const data of vector.data) {
    const bits = data.nullBitmap;
    if (data.nullCount > 0 && bits)
      for (let i = 0; i < data.length; i++) {
        const bit = data.offset + i;
        if (!((bits[bit >> 3] >> (bit & 7)) & 1)) values[start + i] = NaN;
      }
    start += data.length;
  }
  return values;
}

/**
 * The explorer's export writer, which runs off the page's main thread (export.worker.ts): the page hands it the
 * engine's Arrow answers block by block and takes the finished file, so building and zipping a large workbook
 * never freezes the tab.
 */
export function createExportWorkerApi() {
  let writer: ExportWriter | undefined;
  let timings: ExportTimings = { rows: 0, workbook: 0, serialise: 0 };
  let onRows: (written: number) => void = () => undefined;
  let written = 0;
  return {
    /** `progress` hears the number of rows written so far, every few thousand rows. */
    async begin(
      format: ExportFormat,
      columns: ExportColumn[],
      locale: Locale,
      progress: (written: number) => void,
    ): Promise<void> {
      timings = { rows: 0, workbook: 0, serialise: 0 };
      onRows = progress;
      written = 0;
      writer = format === 'csv' ? csvWriter(columns, locale) : await xlsxWriter(columns, locale);
    },
    /** Adds the rows of one Arrow answer; `fixed` sets a column on every row (the totals row's label). */
    add(bytes: Uint8Array, fixed: Record<string, Cell> = {}): number {
      if (!writer) throw new Error('The export has not begun');
      const started = performance.now();
      const table = tableFromIPC(bytes);
      const data: Record<string, ArrayLike<Cell>> = {};
      for (const field of table.schema.fields) data[field.name] = columnCells(table.getChild(field.name)!);
      for (const [column, value] of Object.entries(fixed)) data[column] = Array<Cell>(table.numRows).fill(value);
      const decoded = performance.now();
      for (let from = 0; from < table.numRows; from += PROGRESS_ROWS) {
        const to = Math.min(table.numRows, from + PROGRESS_ROWS);
        const block = Object.fromEntries(
          Object.entries(data).map(([column, values]) => [column, rowsOf(values, from, to)]),
        );
        writer.add({ rowCount: to - from, data: block });
        written += to - from;
        onRows(written);
      }
      timings.rows += decoded - started;
      timings.workbook += performance.now() - decoded;
      return table.numRows;
    },
    async finish(): Promise<{ file: Uint8Array; timings: ExportTimings }> {
      if (!writer) throw new Error('The export has not begun');
      const started = performance.now();
      const file = await writer.finish();
      writer = undefined;
      timings.serialise = performance.now() - started;
      return transfer({ file, timings }, [file.buffer]);
    },
  };
}

export type ExportWorkerApi = ReturnType<typeof createExportWorkerApi>;
