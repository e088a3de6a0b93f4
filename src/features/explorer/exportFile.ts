import { type Locale } from '../../contracts/common';
import { type DatasetSchema, type Field } from '../../contracts/datasets';
import { toCsv } from '../../engine/csv';
import { formatField, localeCurrency } from '../../engine/format';
import { type Cell } from '../../store/engineApi';
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

export interface ExportTable {
  columns: ExportColumn[];
  /** Rows of query values (the last one the totals row). */
  rows: Record<string, Cell>[];
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
export function exportCsv(table: ExportTable, locale: Locale): string {
  const levels = table.columns[0]?.headers.length ?? 1;
  const headers = Array.from({ length: levels }, (_, level) => table.columns.map((column) => column.headers[level]));
  const body = table.rows.map((row) =>
    table.columns.map((column) => {
      const value = row[column.id];
      if (column.field?.type === 'dimension' && (value === null || value === undefined)) return '';
      return column.field ? formatField(value, column.field, locale) : value;
    }),
  );
  // toCsv defuses cells starting with a formula character, so no exported value runs in a spreadsheet.
  return toCsv(headers[0], [...headers.slice(1), ...body]);
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

/** The export as an .xlsx file: sheet 'export', numbers as numbers, merged pivot headers, frozen header. */
export async function exportXlsx(table: ExportTable, locale: Locale): Promise<Uint8Array> {
  // exceljs is large: it loads only when the user exports, in its own chunk.
  const module = await import('exceljs');
  // A CommonJS package: its API is the default export in the app's bundle, the module itself elsewhere.
  const ExcelJS = (module.default ?? module) as typeof module.default;
  const workbook = new ExcelJS.Workbook();
  const levels = table.columns[0]?.headers.length ?? 1;
  const sheet = workbook.addWorksheet(EXPORT_SHEET_NAME, { views: [{ state: 'frozen', ySplit: levels }] });
  sheet.columns = table.columns.map((column) => ({
    width: Math.max(8, Math.round(column.width / PX_PER_CHAR)),
    style: { numFmt: excelNumberFormat(column.field, locale) },
  }));
  for (let level = 0; level < levels; level++) {
    const row = sheet.addRow(table.columns.map((column) => column.headers[level]));
    row.font = { bold: true };
    const values = table.columns.map((column, index) => ({ column, index })).filter(({ column }) => !isGroup(column));
    for (const [from, to] of merges(
      values.map(({ column }) => column),
      level,
    )) {
      sheet.mergeCells(level + 1, values[from].index + 1, level + 1, values[to].index + 1);
    }
  }
  // A group column's name spans all header levels.
  table.columns.forEach((column, index) => {
    if (levels > 1 && isGroup(column)) sheet.mergeCells(1, index + 1, levels, index + 1);
  });
  for (const row of table.rows) {
    sheet.addRow(
      table.columns.map((column) => {
        const value = row[column.id];
        if (column.field?.type !== 'metric') return column.field ? dimensionText(value, column.field, locale) : value;
        return typeof value === 'number' ? value : null;
      }),
    );
  }
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
