import { skipToken } from '@reduxjs/toolkit/query';
import { useEffect, useMemo, useRef } from 'react';
import { shallowEqual } from 'react-redux';
import { type DatasetSchema } from '../../contracts/datasets';
import { type ExplorerConfig } from '../../contracts/reports';
import { type DayRange } from '../../engine/dates';
import { FieldIndex } from '../../engine/fields';
import { type Filter } from '../../engine/filters';
import { gridFilters } from '../../engine/gridFilters';
import { PIVOT_VALUES_TOTAL, isPivotCell, pivotColumn } from '../../engine/queries';
import {
  type Cell,
  type EngineArgs,
  type QueryOf,
  type ResultColumns,
  engineApi,
  useExplorerPivotValuesQuery,
} from '../../store/engineApi';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { type GridLayout } from './explorerEdits';
import {
  BLOCK_SIZE,
  type ExpandedGroup,
  type GroupPath,
  type GridTree,
  blocksOf,
  levelSize,
  pathKey,
} from './gridRows';

/** Column id of the group column (the row groups' values, indented by level). */
export const GROUP_COLUMN = '__group';

export interface GridScope {
  workspaceId: number;
  version: string;
  dataset: string;
  dateField?: string;
  range: DayRange;
  filters: Filter[];
}

type RowsArgs = EngineArgs<QueryOf<'explorerRows'>> | EngineArgs<QueryOf<'explorerPivot'>>;
type CountArgs = EngineArgs<QueryOf<'explorerCount'>>;
type Slot = { data?: ResultColumns; isError: boolean; isLoading: boolean } | undefined;

/**
 * A saved filter model the engine cannot read (advanced, or on a field the dataset lost) falls back to
 * no filters (spec 2 "Grid data source"), rather than failing every query of the view.
 */
export function usableFilterModel(config: ExplorerConfig, schema: DatasetSchema): ExplorerConfig['filterModel'] {
  try {
    gridFilters(config.filterModel, new FieldIndex(schema));
    return config.filterModel;
  } catch {
    return null;
  }
}

/** The sort of one level: the group column sorts each level by its own dimension; others must be its columns. */
function levelSort(layout: GridLayout, depth: number, output: string[]): { field: string; desc: boolean }[] {
  return layout.sort
    .map((s) => (s.field === GROUP_COLUMN ? { ...s, field: layout.rowGroups[depth] ?? '' } : s))
    .filter((s) => output.includes(s.field));
}

/**
 * The grid's queries. A pivot's count and rows do not carry its values: the engine finds them first in the same
 * request (`queryArrow`), joining the values query the columns come from, so the count and rows are asked at once
 * with it rather than after the page has drawn the values' columns.
 */
function queriesOf(scope: GridScope, layout: GridLayout, filterModel: unknown) {
  const base = {
    dataset: scope.dataset,
    dateField: scope.dateField,
    range: scope.range,
    filters: scope.filters,
    filterModel: filterModel ?? undefined,
    rowGroups: layout.rowGroups,
    metrics: layout.metrics,
  };
  const wrap = <Q>(query: Q) => ({ workspaceId: scope.workspaceId, version: scope.version, query });
  const pivot = layout.pivot ? { pivot: layout.pivot } : {};
  const count = (path: GroupPath): CountArgs =>
    wrap({ kind: 'explorerCount' as const, ...base, groupKeys: path, ...pivot });
  const rows = (path: GroupPath, block: number): RowsArgs => {
    const depth = path.length;
    const groups = layout.rowGroups.slice(0, depth + 1);
    const page = { groupKeys: path, offset: block * BLOCK_SIZE, limit: BLOCK_SIZE };
    if (layout.pivot) {
      // Before its values are known, any cell of the view's metrics may be sorted by; the engine skips a sort by a
      // value its answer does not have (`buildExplorerPivot`).
      const cells = layout.sort.map((s) => s.field).filter((field) => isPivotCell(field, layout.metrics));
      const sort = levelSort(layout, depth, [...groups, ...cells]);
      return wrap({ kind: 'explorerPivot' as const, ...base, pivot: layout.pivot, ...page, sort });
    }
    const sort = levelSort(layout, depth, [...groups, ...layout.metrics]);
    return wrap({ kind: 'explorerRows' as const, ...base, ...page, sort });
  };
  const values = (pivot: string): EngineArgs<QueryOf<'explorerPivotValues'>> =>
    wrap({ kind: 'explorerPivotValues' as const, ...base, pivot, metrics: layout.metrics });
  return { count, rows, values };
}

/** Subscribes to engine queries while the grid shows them; their results stay in the RTK Query cache. */
function useSubscriptions(counts: CountArgs[], rows: RowsArgs[]): { counts: Slot[]; rows: Slot[] } {
  const dispatch = useAppDispatch();
  const signature = JSON.stringify([counts, rows]);
  useEffect(() => {
    const subscriptions = [
      ...counts.map((args) => dispatch(engineApi.endpoints.explorerCount.initiate(args))),
      ...rows.map((args) =>
        args.query.kind === 'explorerPivot'
          ? dispatch(engineApi.endpoints.explorerPivot.initiate(args as EngineArgs<QueryOf<'explorerPivot'>>))
          : dispatch(engineApi.endpoints.explorerRows.initiate(args as EngineArgs<QueryOf<'explorerRows'>>)),
      ),
    ];
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
    // The signature stands for the arguments' contents; new arrays with the same queries change nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dispatch, signature]);
  // One memoised selector per query, so an unchanged cache entry selects the same object.
  const selectors = useMemo(
    () => ({
      counts: counts.map((args) => engineApi.endpoints.explorerCount.select(args)),
      rows: rows.map((args) =>
        args.query.kind === 'explorerPivot'
          ? engineApi.endpoints.explorerPivot.select(args as EngineArgs<QueryOf<'explorerPivot'>>)
          : engineApi.endpoints.explorerRows.select(args as EngineArgs<QueryOf<'explorerRows'>>),
      ),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [signature],
  );
  const countSlots = useAppSelector((state) => selectors.counts.map((select) => select(state)), shallowEqual);
  const rowSlots = useAppSelector((state) => selectors.rows.map((select) => select(state)), shallowEqual);
  return { counts: countSlots, rows: rowSlots };
}

export type GridStatus = 'loading' | 'success' | 'error';

export interface GridSource {
  status: GridStatus;
  /** Top-level rows (the total row count), undefined while loading or on error. */
  total?: number;
  /** Rows the grid draws, expanded groups included. */
  size: number;
  tree: GridTree;
  /** The cell values of a level's row, or undefined while its block loads. */
  rowOf(path: GroupPath, index: number): Record<string, Cell> | undefined;
  /** Pivot result columns (value__metric) in the order of the pivot values. */
  pivotColumns: string[];
  pivotValues: string[];
  /** How many values the pivot dimension has in all: more than `pivotValues` when the pivot was cut. */
  pivotTotal: number;
}

const NO_VALUES: string[] = [];

/** A pivot's column values, found by SQL before its cells: the largest that fit in 100 result columns. */
function usePivotValues(scope: GridScope, layout: GridLayout, filterModel: unknown) {
  const args = useMemo(
    () => (layout.pivot ? queriesOf(scope, layout, filterModel).values(layout.pivot) : skipToken),
    [scope, layout, filterModel],
  );
  const result = useExplorerPivotValuesQuery(args);
  const data = args === skipToken ? undefined : result.data;
  const values = useMemo(() => (data?.data.value ?? NO_VALUES).map(String), [data]);
  const total = data?.data[PIVOT_VALUES_TOTAL]?.[0];
  return {
    isError: result.isError,
    values,
    total: Number(total ?? 0),
  };
}

/** The same array as last time while its items are the same: slots that merely went pending change nothing. */
function useStable<T>(items: T[]): T[] {
  const last = useRef(items);
  if (!shallowEqual(last.current, items)) last.current = items;
  return last.current;
}

/** The top level's blocks of the visible rows, asked for with its count rather than after it. */
function topBlocks(first: number, last: number): { path: GroupPath; block: number }[] {
  const from = Math.floor(Math.max(0, first) / BLOCK_SIZE);
  const to = Math.floor(Math.max(0, last) / BLOCK_SIZE);
  return Array.from({ length: to - from + 1 }, (_, i) => ({ path: [], block: from + i }));
}

/** A row's cells by path and index, built once per row from the loaded blocks (the table asks per cell). */
function rowReader(rowArgs: RowsArgs[], blocks: (ResultColumns | undefined)[]): GridSource['rowOf'] {
  const byBlock = new Map<string, ResultColumns>();
  rowArgs.forEach((args, i) => {
    const data = blocks[i];
    if (data) byBlock.set(`${pathKey(args.query.groupKeys ?? [])}#${args.query.offset}`, data);
  });
  const rows = new Map<string, Record<string, Cell>>();
  return (path, index) => {
    const offset = Math.floor(index / BLOCK_SIZE) * BLOCK_SIZE;
    const data = byBlock.get(`${pathKey(path)}#${offset}`);
    // Past the block's last row: a level's rows read before its count may be fewer than the table draws.
    if (!data || index - offset >= data.rowCount) return undefined;
    const key = `${pathKey(path)}#${index}`;
    let row = rows.get(key);
    if (!row) {
      const i = index - offset;
      row = Object.fromEntries(data.columns.map((column) => [column, data.data[column][i]]));
      rows.set(key, row);
    }
    return row;
  };
}

/**
 * The grid's server-row-model: counts of the top level and of every expanded group, and the blocks of
 * rows the grid shows, each grouped, pivoted, filtered, sorted and paged by SQL in the engine pool.
 * The answer keeps its identity until a count or a block's data changes, so the table redraws its cells only then.
 */
export function useGridSource(
  scope: GridScope,
  layout: GridLayout,
  filterModel: unknown,
  expanded: readonly ExpandedGroup[],
  visible: { first: number; last: number },
): GridSource {
  const pivoted = usePivotValues(scope, layout, filterModel);
  const pivotValues = pivoted.values;
  const queries = useMemo(() => queriesOf(scope, layout, filterModel), [scope, layout, filterModel]);
  const paths = useMemo(() => [[], ...expanded.map((group) => group.path)] as GroupPath[], [expanded]);
  const countArgs = useMemo(() => paths.map(queries.count), [paths, queries]);
  const { counts: countSlots } = useSubscriptions(countArgs, []);
  const countValues = useStable(countSlots.map((slot) => slot?.data?.data.count?.[0]));
  const tree = useMemo<GridTree>(() => {
    const counts = new Map<string, number>();
    countValues.forEach((count, i) => {
      if (typeof count === 'number') counts.set(pathKey(paths[i]), count);
    });
    // An expanded group shows once its parent's rows are counted (a stale expansion is dropped).
    return { counts, expanded: expanded.filter((group) => counts.has(pathKey(group.path))) };
  }, [countValues, paths, expanded]);
  const rowArgs = useMemo(() => {
    // The first rows do not wait for the count: both queries are in the pool's queue at once.
    const counted = tree.counts.has(pathKey([]));
    const blocks = counted ? blocksOf(tree, visible.first, visible.last) : topBlocks(visible.first, visible.last);
    return blocks.map(({ path, block }) => queries.rows(path, block));
  }, [tree, visible.first, visible.last, queries]);
  const { rows: rowSlots } = useSubscriptions([], rowArgs);
  const blocks = useStable(rowSlots.map((slot) => slot?.data));
  const rowOf = useMemo(() => rowReader(rowArgs, blocks), [rowArgs, blocks]);

  const top = countSlots[0];
  // Spec 2 §8: a failed query of any part (the pivot's values, a count, a block of rows) fails the grid's load.
  const failed = pivoted.isError || countSlots.some((slot) => slot?.isError) || rowSlots.some((slot) => slot?.isError);
  const status: GridStatus = failed ? 'error' : top?.data ? 'success' : 'loading';
  const pivotColumns = useMemo(
    () =>
      layout.pivot ? pivotValues.flatMap((value) => layout.metrics.map((metric) => pivotColumn(value, metric))) : [],
    [layout, pivotValues],
  );
  return useMemo(
    () => ({
      status,
      total: tree.counts.get(pathKey([])),
      size: levelSize(tree),
      tree,
      rowOf,
      pivotColumns,
      pivotValues,
      pivotTotal: pivoted.total,
    }),
    [status, tree, rowOf, pivotColumns, pivotValues, pivoted.total],
  );
}
