import { type Locale } from '../../contracts/common';
import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { type Cell } from '../../engine/cells';
import { csvLines } from '../../engine/csv';
import { formatField, localeCurrency } from '../../engine/format';
import { fieldLabel } from '../widgets/widgetQuery';

export const EXPORT_SHEET_NAME = 'export';
export const TOTAL_LABEL = 'Total';
/** Excel column width units per grid pixel (a character is about 7 px wide). */
const PX_PER_CHAR = 7;

/** One exported column: a group dimension or a value (under a pivot value when pivoted). */
export interface ExportColumn {
  id: string;
  field?: Field;
  /** Header levels from the top: [pivot value, metric] when pivoted, else [name]. */
  headers: string[];
  width: number;
}

/** A block of exported rows as columns by query column name (typed arrays where the values are plain numbers). */
export interface RowChunk {
  rowCount: number;
  data: Record<string, ArrayLike<Cell> | undefined>;
}

/** Writes an export block by block, so rows never exist as one object per row. */
export interface ExportWriter {
  add(chunk: RowChunk): void;
  /** The file's bytes. */
  finish(): Promise<Uint8Array>;
}

/** The columns of an export: the row groups as columns, then the grid's value columns in their order. */
export function exportColumns(
  schema: DatasetSchema,
  rowGroups: string[],
  values: { id: string; field?: Field; width: number }[],
  pivot: boolean,
): ExportColumn[] {
  const fields = new Map(schema.fields.map((field) => [field.id, field]));
  const levels = pivot ? 2 : 1;
  const groups = rowGroups.map((id) => {
    const field = fields.get(id);
    return { id, field, headers: Array<string>(levels).fill(field ? fieldLabel(field) : id), width: 160 };
  });
  const cells = values.map((column) => {
    const name = column.field ? fieldLabel(column.field) : column.id;
    const value = column.field ? column.id.slice(0, -column.field.id.length - 2) : '';
    return { ...column, headers: pivot ? [value, name] : [name] };
  });
  return [...groups, ...cells];
}

/** The export as CSV: one header row per level, values formatted in the workspace's locale. */
export function csvWriter(columns: ExportColumn[], locale: Locale): ExportWriter {
  const levels = columns[0]?.headers.length ?? 1;
  // csvLines defuses cells starting with a formula character, so no exported value runs in a spreadsheet.
  const parts = [
    csvLines(Array.from({ length: levels }, (_, level) => columns.map((column) => column.headers[level]))),
  ];
  return {
    add({ rowCount, data }) {
      const cells = columns.map((column) => data[column.id]);
      const rows = Array.from({ length: rowCount }, (_, i) =>
        columns.map((column, c) => {
          const value = cells[c]?.[i] ?? null;
          if (column.field?.type === 'dimension' && value === null) return '';
          return column.field ? formatField(value, column.field, locale) : value;
        }),
      );
      parts.push(csvLines(rows));
    },
    finish: async () => new TextEncoder().encode(parts.join('')),
  };
}

/** The number format Excel shows a metric in (the value itself stays a number). */
export function excelNumberFormat(field: Field | undefined, locale: Locale): string | undefined {
  if (!field || field.type !== 'metric') return undefined;
  const symbol = { USD: '$', GBP: '£', EUR: '€' }[localeCurrency[locale]];
  switch (field.format) {
    case 'percent':
      return '0.00%';
    case 'currency':
      return `"${symbol}"#,##0.00`;
    case 'currency_rounded':
      return `"${symbol}"#,##0`;
    case 'number_rounded':
      return '#,##0';
    default:
      return '#,##0.###';
  }
}

/** Merges equal neighbouring header cells of one level (a pivot value over its metrics). */
function merges(columns: ExportColumn[], level: number): [number, number][] {
  const spans: [number, number][] = [];
  let start = 0;
  for (let i = 1; i <= columns.length; i++) {
    const same = i < columns.length && columns[i].headers[level] === columns[start].headers[level];
    if (same) continue;
    if (i - start > 1) spans.push([start, i - 1]);
    start = i;
  }
  return spans;
}

/**
 * The export as an .xlsx file: sheet 'export', numbers as numbers, merged pivot headers, frozen header. exceljs
 * writes everything but the rows (`xlsxScaffold`); the rows go into the sheet's XML as bytes (`xlsxSheet.ts`),
 * since exceljs's Cell object per value and its sheet XML as one string took most of a large export's time.
 */
export async function xlsxWriter(columns: ExportColumn[], locale: Locale): Promise<ExportWriter> {
  const levels = columns[0]?.headers.length ?? 1;
  // exceljs and the zip writer are large: they load only when the user exports, in the export worker's chunks.
  const [scaffold, { streamedWorkbook }] = await Promise.all([xlsxScaffold(columns, locale), import('./xlsxSheet')]);
  const numeric = columns.map((column) => column.field?.type === 'metric');
  const workbook = streamedWorkbook(scaffold, levels + 1, columns.length, numeric);
  // A group column repeats its values (dates, countries, hours): each is formatted once.
  const texts = columns.map(() => new Map<Cell | undefined, string>());
  return {
    add({ rowCount, data }) {
      workbook.add(
        columns.map((column, c) => {
          const values = data[column.id];
          if (!values || !column.field || column.field.type === 'metric') return values;
          const field = column.field;
          return Array.from({ length: rowCount }, (_, i) => {
            let text = texts[c].get(values[i]);
            if (text === undefined) texts[c].set(values[i], (text = dimensionText(values[i], field, locale)));
            return text;
          });
        }),
        rowCount,
      );
    },
    finish: () => workbook.finish(),
  };
}

/**
 * The workbook without its rows, from exceljs: the header rows (merged where a pivot value spans its metrics and a
 * group's name spans the levels), the frozen header, widths from the grid, and one template row whose cells carry
 * each column's style (number format), which the rows written after it reuse by index.
 */
async function xlsxScaffold(columns: ExportColumn[], locale: Locale): Promise<Uint8Array> {
  const module = await import('exceljs');
  // A CommonJS package: its API is the default export in the app's bundle, the module itself elsewhere.
  const ExcelJS = (module.default ?? module) as typeof module.default;
  const workbook = new ExcelJS.Workbook();
  const levels = columns[0]?.headers.length ?? 1;
  const sheet = workbook.addWorksheet(EXPORT_SHEET_NAME, { views: [{ state: 'frozen', ySplit: levels }] });
  sheet.columns = columns.map((column) => ({ width: Math.max(8, Math.round(column.width / PX_PER_CHAR)) }));
  for (let level = 0; level < levels; level++) {
    const row = sheet.addRow(columns.map((column) => column.headers[level]));
    row.font = { bold: true };
    const values = columns.map((column, index) => ({ column, index })).filter(({ column }) => !isGroup(column));
    for (const [from, to] of merges(
      values.map(({ column }) => column),
      level,
    )) {
      sheet.mergeCells(level + 1, values[from].index + 1, level + 1, values[to].index + 1);
    }
  }
  // A group column's name spans all header levels.
  columns.forEach((column, index) => {
    if (levels > 1 && isGroup(column)) sheet.mergeCells(1, index + 1, levels, index + 1);
  });
  // Every cell of the template row holds a value, so exceljs writes each one with its style.
  const template = sheet.addRow(columns.map(() => 0));
  columns.forEach((column, c) => {
    const numFmt = excelNumberFormat(column.field, locale);
    if (numFmt) template.getCell(c + 1).style = { numFmt };
  });
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

const isGroup = (column: ExportColumn) => column.field?.type === 'dimension';

function dimensionText(value: Cell | undefined, field: Field, locale: Locale): string {
  if (value === null || value === undefined) return '';
  return field.format === 'string' ? String(value) : formatField(value, field, locale);
}

/** Starts a browser download of a file made in memory. */
export function downloadFile(bytes: Uint8Array | string, name: string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
