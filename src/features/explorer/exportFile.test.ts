/** @jest-environment node */
import ExcelJS from 'exceljs';
import { campaignSchema } from '../../engine/testing/fixtures';
import { EXPORT_SHEET_NAME, TOTAL_LABEL, exportColumns, exportCsv, exportXlsx } from './exportFile';

const field = (id: string) => {
  const found = campaignSchema.fields.find((f) => f.id === id)!;
  return id === 'open_rate' ? { ...found, format: 'percent' as const } : found;
};
// Grouped by country, pivoted by campaign over two values, two metrics.
const values = ['Alpha', '=HYPERLINK("x")'].flatMap((value) =>
  ['sent', 'open_rate'].map((metric) => ({ id: `${value}__${metric}`, field: field(metric), width: 140 })),
);
const table = {
  columns: exportColumns(campaignSchema, ['country'], values, true),
  rows: [
    {
      country: 'NL',
      Alpha__sent: 1200,
      Alpha__open_rate: 0.25,
      '=HYPERLINK("x")__sent': 3,
      '=HYPERLINK("x")__open_rate': null,
    },
    {
      country: TOTAL_LABEL,
      Alpha__sent: 1500,
      Alpha__open_rate: 0.2,
      '=HYPERLINK("x")__sent': 3,
      '=HYPERLINK("x")__open_rate': 0.5,
    },
  ],
};

test('CSV: a header row per pivot level, formatted values, formula cells defused', () => {
  const lines = exportCsv(table, 'en_US').trim().split('\r\n');
  expect(lines[0]).toBe(`country,Alpha,Alpha,"'=HYPERLINK(""x"")","'=HYPERLINK(""x"")"`);
  expect(lines[1]).toBe('country,sent,open_rate,sent,open_rate');
  expect(lines[2]).toBe('Netherlands,"1,200",25.00%,3,N/A');
  expect(lines[3]).toBe(`${TOTAL_LABEL},"1,500",20.00%,3,50.00%`);
});

test('Excel: sheet export, merged pivot headers, frozen header, numbers with formats, widths', async () => {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await exportXlsx(table, 'en_US')).buffer as ArrayBuffer);
  const sheet = workbook.getWorksheet(EXPORT_SHEET_NAME)!;
  expect(workbook.worksheets.map((s) => s.name)).toEqual([EXPORT_SHEET_NAME]);
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 2 });
  expect((sheet.model as { merges: string[] }).merges.sort()).toEqual(['A1:A2', 'B1:C1', 'D1:E1']);
  expect(sheet.getCell('B1').value).toBe('Alpha');
  expect(sheet.getCell('B3').value).toBe(1200);
  expect(sheet.getCell('C3').value).toBe(0.25);
  expect(sheet.getCell('C3').numFmt).toBe('0.00%');
  expect(sheet.getCell('E3').value).toBeNull();
  expect(sheet.getCell('A4').value).toBe(TOTAL_LABEL);
  expect(sheet.getColumn(2).width).toBe(20);
});
