import { listSortOf, sortListRows, toggledListSort } from './listOrder';

test.each([
  [{ orderBy: 'currentPeriod', order: 'desc' }, 'dimension', { orderBy: 'dimension', order: 'desc' }],
  [{ orderBy: 'dimension', order: 'desc' }, 'dimension', { orderBy: 'dimension', order: 'asc' }],
  [{ orderBy: 'dimension', order: 'asc' }, 'dimension', { orderBy: 'dimension', order: 'desc' }],
  [{ orderBy: 'dimension', order: 'asc' }, 'currentPeriod', { orderBy: 'currentPeriod', order: 'desc' }],
  [{ orderBy: 'currentPeriod', order: 'desc' }, 'currentPeriod', { orderBy: 'currentPeriod', order: 'asc' }],
] as const)('from %p a click on %s sorts %p', (sort, column, expected) => {
  expect(toggledListSort(sort, column)).toEqual(expected);
});

test('saved settings: current period descending unless told otherwise', () => {
  expect(listSortOf(undefined)).toEqual({ orderBy: 'currentPeriod', order: 'desc' });
  expect(listSortOf({ orderBy: 'dimension', order: 'asc' })).toEqual({ orderBy: 'dimension', order: 'asc' });
  expect(listSortOf({ orderBy: 'somethingElse' })).toEqual({ orderBy: 'currentPeriod', order: 'desc' });
});

test('rows without a value stay last in both directions; names sort naturally', () => {
  const rows = [
    { label: 'b', value: 2 },
    { label: 'a10', value: null },
    { label: 'a9', value: 5 },
  ];
  expect(sortListRows(rows, { orderBy: 'currentPeriod', order: 'desc' }).map((r) => r.label)).toEqual([
    'a9',
    'b',
    'a10',
  ]);
  expect(sortListRows(rows, { orderBy: 'currentPeriod', order: 'asc' }).map((r) => r.label)).toEqual([
    'b',
    'a9',
    'a10',
  ]);
  expect(sortListRows(rows, { orderBy: 'dimension', order: 'asc' }).map((r) => r.label)).toEqual(['a9', 'a10', 'b']);
});
