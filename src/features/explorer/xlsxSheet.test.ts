/** @jest-environment ./test/nodeEnvironment.js */
import { crc32 as zlibCrc32 } from 'node:zlib';
import ExcelJS from 'exceljs';
import { strFromU8, unzipSync } from 'fflate';
import { type Field } from '../../contracts/datasets';
import { type Cell } from '../../engine/cells';
import { formatField } from '../../engine/format';
import { campaignSchema } from '../../engine/testing/fixtures';
import { crc32, crc32Combine } from './crc32';
import { EXPORT_SHEET_NAME, TOTAL_LABEL, exportColumns, xlsxWriter } from './exportFile';
import { columnLetters, xmlText } from './xlsxSheet';

const field = (id: string) => campaignSchema.fields.find((f) => f.id === id)!;
const revenue: Field = { ...field('revenue'), format: 'currency' };
// Grouped by campaign name and send date, pivoted over two awkward values; a column with no field holds raw cells.
const values = ['A & <B>', '=SUM(A1)'].flatMap((value) => [
  { id: `${value}__sent`, field: field('sent'), width: 140 },
  { id: `${value}__revenue`, field: revenue, width: 70 },
]);
const columns = exportColumns(
  campaignSchema,
  ['campaign_name', 'send_date'],
  [...values, { id: 'raw', width: 30 }],
  true,
);

/** Awkward cells, one row each: [campaign name, the first pivot value's sent, its revenue, raw]. */
const awkward: [Cell, Cell, Cell, Cell][] = [
  ['Tom & Jerry <"quoted"> \'single\'', 1.5, -12.25, true],
  ['=HYPERLINK("http://x")', -3, 1e15, false],
  ['+1-2@x', 0, 1e21, '=1+1'],
  ['Zürich 東京 😀', 1.5e-7, -0.5, 'ünïcode 😀'],
  ['ctrl\u0001\u001f chars\uFFFE and a lone \uD800 surrogate', NaN, Infinity, -Infinity],
  ['', null, null, ''],
  [null, 123456789.125, -2147483648, null],
  ['  padded\r\nlines  ', 2147483647, 4294967296, 42],
];
const ROWS = 12_345;

/** Row i of the bulk: every column a plain function of i, so any cell can be checked. */
const bulk = (i: number) => ({ name: `Campaign ${i}`, sent: i * 3, revenue: i / 7 });

async function writeBack(blocks: number[]) {
  const writer = await xlsxWriter(columns, 'en_US');
  writer.add({
    rowCount: awkward.length,
    data: {
      campaign_name: awkward.map((row) => row[0]),
      send_date: awkward.map(() => '2026-11-02'),
      'A & <B>__sent': awkward.map((row) => row[1]),
      'A & <B>__revenue': awkward.map((row) => row[2]),
      raw: awkward.map((row) => row[3]),
    },
  });
  // The bulk in blocks of uneven sizes, typed arrays as the engine gives them.
  let from = 0;
  for (const size of blocks) {
    const rows = Array.from({ length: size }, (_, k) => bulk(from + k));
    writer.add({
      rowCount: size,
      data: {
        campaign_name: rows.map((row) => row.name),
        '=SUM(A1)__sent': Float64Array.from(rows, (row) => row.sent),
        '=SUM(A1)__revenue': Float64Array.from(rows, (row) => row.revenue),
      },
    });
    from += size;
  }
  writer.add({ rowCount: 1, data: { campaign_name: [TOTAL_LABEL], 'A & <B>__sent': Int32Array.of(99) } });
  const file = await writer.finish();
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(file.buffer as ArrayBuffer);
  // The sheet's dimension element, which exceljs recomputes on reading.
  const xml = strFromU8(unzipSync(file)['xl/worksheets/sheet1.xml']);
  return { workbook, dimension: /<dimension ref="([^"]+)"\/>/.exec(xml)?.[1] };
}

test('Excel: awkward values, bulk rows across blocks, formats, pivot header, frozen pane and widths read back', async () => {
  const { workbook, dimension } = await writeBack([5000, 4999, 2346]);
  expect(workbook.worksheets.map((s) => s.name)).toEqual([EXPORT_SHEET_NAME]);
  const sheet = workbook.getWorksheet(EXPORT_SHEET_NAME)!;

  // The header: two levels, the groups merged down, each pivot value merged over its metrics.
  // (exceljs reads a merged cell's value in each of its cells.)
  const pivotValues = ['A & <B>', 'A & <B>', '=SUM(A1)', '=SUM(A1)', ''];
  expect(sheet.getRow(1).values).toEqual([undefined, 'campaign_name', 'send_date', ...pivotValues]);
  expect(sheet.getRow(2).values).toEqual([
    undefined,
    'campaign_name',
    'send_date',
    'sent',
    'revenue',
    'sent',
    'revenue',
    'raw',
  ]);
  expect((sheet.model as { merges: string[] }).merges.sort()).toEqual(['A1:A2', 'B1:B2', 'C1:D1', 'E1:F1']);
  expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 2 });
  expect([1, 3, 4, 7].map((c) => sheet.getColumn(c).width)).toEqual([23, 20, 10, 8]);

  const cells = (row: number) => [1, 3, 4, 7].map((c) => sheet.getCell(row, c).value);
  expect(awkward.map((_, i) => cells(3 + i))).toEqual([
    ['Tom & Jerry <"quoted"> \'single\'', 1.5, -12.25, true],
    // Text is text: nothing becomes a formula.
    ['=HYPERLINK("http://x")', -3, 1e15, false],
    ['+1-2@x', 0, 1e21, '=1+1'],
    ['Zürich 東京 😀', 1.5e-7, -0.5, 'ünïcode 😀'],
    // Characters XML cannot hold are dropped; NaN and infinities leave the cell empty.
    ['ctrl chars and a lone  surrogate', null, null, null],
    // An empty string is an empty cell.
    [null, null, null, null],
    [null, 123456789.125, -2147483648, null],
    ['  padded\r\nlines  ', 2147483647, 4294967296, 42],
  ]);
  // A date as the grid shows it, as before.
  expect(sheet.getCell('B3').value).toBe(formatField('2026-11-02', field('send_date'), 'en_US'));
  expect(sheet.getCell('C3').numFmt).toBe('#,##0.###');
  expect(sheet.getCell('D3').numFmt).toBe('"$"#,##0.00');
  // An empty metric cell keeps its column's format.
  expect(sheet.getCell('C7').numFmt).toBe('#,##0.###');

  // The bulk: every row where it belongs, across the blocks' edges, with its column's format.
  const first = 3 + awkward.length;
  for (const i of [0, 4999, 5000, 9998, 9999, ROWS - 1]) {
    const row = first + i;
    const expected = bulk(i);
    expect([sheet.getCell(row, 1).value, sheet.getCell(row, 5).value, sheet.getCell(row, 6).value]).toEqual([
      expected.name,
      expected.sent,
      expected.revenue,
    ]);
    expect(sheet.getCell(row, 6).numFmt).toBe('"$"#,##0.00');
  }
  const totals = first + ROWS;
  expect([sheet.getCell(totals, 1).value, sheet.getCell(totals, 3).value]).toEqual([TOTAL_LABEL, 99]);
  expect(sheet.rowCount).toBe(totals);
  expect(dimension).toBe(`A1:G${totals}`);
});

test('Excel: an export without rows is its header alone', async () => {
  const writer = await xlsxWriter(columns, 'en_US');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await writer.finish()).buffer as ArrayBuffer);
  const sheet = workbook.getWorksheet(EXPORT_SHEET_NAME)!;
  expect(sheet.rowCount).toBe(2);
  expect(sheet.getCell('C1').value).toBe('A & <B>');
});

test('XML text and column letters', () => {
  expect(xmlText('a<b>&c\rd\u0000e\uDFFF')).toBe('a&lt;b&gt;&amp;c&#13;de');
  expect(xmlText('plain "quotes" 😀')).toBe('plain "quotes" 😀');
  expect([0, 25, 26, 51, 52, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AZ', 'BA', 'ZZ', 'AAA']);
});

test('CRC-32 of pieces combines into the CRC-32 of the whole', () => {
  const text = new TextEncoder().encode('The sheet starts here; rows follow. '.repeat(1000));
  for (const cut of [0, 1, 17, 4096, text.length]) {
    const [a, b] = [text.subarray(0, cut), text.subarray(cut)];
    expect(crc32Combine(crc32(0, a), crc32(0, b), b.length)).toBe(zlibCrc32(text));
  }
  expect(crc32(crc32(0, text.subarray(0, 5)), text.subarray(5))).toBe(zlibCrc32(text));
});
