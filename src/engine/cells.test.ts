/** @jest-environment ./test/nodeEnvironment.js */
import { Float64, Table, Utf8, tableFromArrays, vectorFromArray } from 'apache-arrow';
import { vectorCells } from './cells';

test('a column of plain numbers comes back as its own typed array, with the same values', () => {
  const vector = tableFromArrays({ sent: Float64Array.of(1, 2.5, 3) }).getChild('sent')!;
  const cells = vectorCells(vector);
  expect(cells).toBeInstanceOf(Float64Array);
  expect(Array.from(cells)).toEqual([1, 2.5, 3]);
});

test('nulls, big integers and strings come back as plain cells, nulls as null', () => {
  const table = new Table({
    rate: vectorFromArray([0.5, null, 0.25], new Float64()),
    count: vectorFromArray(BigInt64Array.of(7n, 9007199254740993n, -1n)),
    name: vectorFromArray(['NL', null, '=x'], new Utf8()),
  });
  expect(Array.from(vectorCells(table.getChild('rate')!))).toEqual([0.5, null, 0.25]);
  expect(Array.from(vectorCells(table.getChild('count')!))).toEqual([7, 9007199254740992, -1]);
  expect(Array.from(vectorCells(table.getChild('name')!))).toEqual(['NL', null, '=x']);
});
