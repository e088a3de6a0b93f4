/** @jest-environment ./test/nodeEnvironment.js */
import { Float64, Int32, Table, Utf8, tableToIPC, vectorFromArray } from 'apache-arrow';
import ExcelJS from 'exceljs';
import { campaignSchema } from '../../engine/testing/fixtures';
import { exportColumns } from './exportFile';
import { createExportWorkerApi } from './exportWorkerApi';

// A rate with no denominator is null in the engine's answer; the rows around it keep their numbers.
const rates = [0.25, null, 0.125, null, 1 / 3];
const answer = tableToIPC(
  new Table({
    country: vectorFromArray(['NL', 'DE', null, 'FR', 'BE'], new Utf8()),
    sent: vectorFromArray([10, 20, 30, 40, 50], new Int32()),
    open_rate: vectorFromArray(rates, new Float64()),
  }),
);
const columns = exportColumns(
  campaignSchema,
  ['country'],
  ['sent', 'open_rate'].map((id) => ({ id, field: campaignSchema.fields.find((f) => f.id === id), width: 100 })),
  false,
);

async function exported(format: 'csv' | 'xlsx') {
  const api = createExportWorkerApi();
  await api.begin(format, columns, 'en_US', () => undefined);
  expect(api.add(answer)).toBe(rates.length);
  return (await api.finish()).file;
}

test('an answer whose rate column has nulls exports them as empty cells, the other values unchanged', async () => {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load((await exported('xlsx')).buffer as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const rows = rates.map((_, i) => [1, 2, 3].map((c) => sheet.getCell(2 + i, c).value));
  expect(rows).toEqual([
    ['Netherlands', 10, 0.25],
    ['Germany', 20, null],
    [null, 30, 0.125],
    ['France', 40, null],
    ['Belgium', 50, 1 / 3],
  ]);
  // The CSV shows the grid's text for a missing rate, as for any null.
  const csv = new TextDecoder()
    .decode(await exported('csv'))
    .trim()
    .split(/\r?\n/);
  expect(csv.slice(1).map((line) => line.split(',').slice(1))).toEqual([
    ['10', '0.25'],
    ['20', 'N/A'],
    ['30', '0.125'],
    ['40', 'N/A'],
    ['50', '0.333'],
  ]);
});
