/** @jest-environment ./test/nodeEnvironment.js */
import ExcelJS from 'exceljs';
import { campaignSchema } from '../../engine/testing/fixtures';
import { EXPORT_SHEET_NAME, TOTAL_LABEL, type ExportWriter, csvWriter, exportColumns, xlsxWriter } from './exportFile';

const field = (id: string) => {
  const found = campaignSchema.fields.find((f) => f.id === id)!;
  return id === 'open_rate' ? { ...found, format: 'percent' as const } : found;
};
// Grouped by country, pivoted by campaign over two values, two metrics.
const values = ['Alpha', '=HYPERLINK("x")'].flatMap((value) =>
  ['sent', 'open_rate'].map((metric) => ({ id: `${value}__${metric}`, field: field(metric), width: 140 })),
);
const columns = exportColumns(campaignSchema, ['country'], values, true);
// Two blocks as the engine answers them: a typed array for a column of plain numbers, arrays where there are nulls.
const blocks = [
  {
    rowCount: 1,
    data: {
      country: ['NL'],
      Alpha__sent: Float64Array.of(1200),
      Alpha__open_rate: [0.25],
      '=HYPERLINK("x")__sent': Int32Array.of(3),
      '=HYPERLINK("x")__open_rate': [null],
    },
  },
  {
    rowCount: 1,
    data: {
      country: [TOTAL_LABEL],
      Alpha__sent: [1500],
      Alpha__open_rate: Float64Array.of(0.2),
      '=HYPERLINK("x")__sent': [3],
      '=HYPERLINK("x")__open_rate': [0.5],
    },
  },
];
const write = async (writer: ExportWriter) => {
  blocks.forEach((block) => writer.add(block));
  return writer.finish();
};

test('CSV: a header row per pivot level, formatted values block after block, formula cells defused', async () => {
  const lines = new TextDecoder().decode(await write(csvWriter(columns, 'en_US'))).split('\r\n');
  expect(lines[0]).toBe(`country,Alpha,Alpha,"'=HYPERLINK(""x"")","'=HYPERLINK(""x"")"`);
  expect(lines[1]).toBe('country,sent,open_rate,sent,open_rate');
  expect(lines[2]).toBe('Netherlands,"1,200",25.00%,3,N/A');
  expect(lines[3]).toBe(`${TOTAL_LABEL},"1,500",20.00%,3,50.00%`);
  expect(lines.slice(4)).toEqual(['']);
});

test('Excel: sheet export, merged pivot headers, frozen header, numbers with formats, widths', async () => {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await write(await xlsxWriter(columns, 'en_US'))).buffer as ArrayBuffer);
  const sheet = workbook.getWorksheet(EXPORT_SHEET_NAME)!;
  expect(workbook.worksheets.map((s) => s.name)).toEqual([EXPORT_SHEET_NAME]);
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 2 });
  expect((sheet.model as { merges: string[] }).merges.sort()).toEqual(['A1:A2', 'B1:C1', 'D1:E1']);
  expect(sheet.getCell('B1').value).toBe('Alpha');
  expect(sheet.getCell('B3').value).toBe(1200);
  expect(sheet.getCell('B3').numFmt).toBe('#,##0.###');
  expect(sheet.getCell('C3').value).toBe(0.25);
  expect(sheet.getCell('C3').numFmt).toBe('0.00%');
  expect(sheet.getCell('D3').value).toBe(3);
  expect(sheet.getCell('E3').value).toBeNull();
  expect(sheet.getCell('A4').value).toBe(TOTAL_LABEL);
  expect(sheet.getCell('C4').value).toBe(0.2);
  expect(sheet.getCell('C4').numFmt).toBe('0.00%');
  expect(sheet.rowCount).toBe(4);
  expect(sheet.getColumn(2).width).toBe(20);
});
