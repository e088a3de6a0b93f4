/** @jest-environment ./test/nodeEnvironment.js */
import { Dictionary, Int32, Utf8, tableFromArrays, tableFromIPC, tableToIPC, vectorFromArray } from 'apache-arrow';
import { openNodeDuckdbInstance } from '../engine/testing/nodeDuckdb';
import { createEngineCore } from './engineCore';
import { ipcSlices } from './ipcSlices';

/** Ten record batches of 1000 rows, with a dictionary-encoded string column as the dataset files have. */
function file(): Uint8Array {
  const names = ['Alpha', "O'Brien", 'Gamma'];
  const parts = Array.from({ length: 10 }, (_, part) => {
    const n = Int32Array.from({ length: 1000 }, (_, i) => part * 1000 + i);
    const name = vectorFromArray(
      Array.from(n, (value) => names[value % 3]),
      new Dictionary(new Utf8(), new Int32()),
    );
    return tableFromArrays({ n }).assign(tableFromArrays({ name: name.toArray() as unknown as string[] }));
  });
  const table = parts.reduce((all, part) => all.concat(part));
  expect(table.batches.length).toBe(10);
  return tableToIPC(table, 'stream');
}

test('slices are complete streams holding every row once, in order', () => {
  const bytes = file();
  const slices = [...ipcSlices(bytes, 10_000)];
  expect(slices.length).toBeGreaterThan(2);
  const rows = slices.flatMap((slice) =>
    tableFromIPC(slice)
      .toArray()
      .map((row) => row.toJSON()),
  );
  expect(rows).toEqual(
    tableFromIPC(bytes)
      .toArray()
      .map((row) => row.toJSON()),
  );
});

test('the worker core loads a file slice by slice into one table', async () => {
  const core = createEngineCore(async () => {
    const { db, conn } = await openNodeDuckdbInstance();
    return { conn, version: db.getVersion(), heapBytes: () => 0 };
  });
  expect(await core.load('t', 'v1', file())).toMatchObject({ rows: 10_000 });
  const result = tableFromIPC(
    await core.query(
      `SELECT COUNT(DISTINCT n)::INTEGER AS n, COUNT(*) FILTER (WHERE name = 'O''Brien')::INTEGER AS o FROM t`,
    ),
  );
  expect(result.toArray()[0].toJSON()).toEqual({ n: 10_000, o: 3333 });
  await expect(core.load('t', 'v2', new Uint8Array())).rejects.toEqual({
    name: 'EngineError',
    message: 'Body for dataset is empty',
  });
  await expect(core.load('bad name"', 'v', file())).rejects.toMatchObject({
    message: 'Invalid table name "bad name""',
  });
});
