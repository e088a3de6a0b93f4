import { proxy } from 'comlink';
import { useCallback, useRef, useState } from 'react';
import { type Locale } from '../../contracts/common';
import { type DatasetSchema } from '../../contracts/datasets';
import { type QueryInput } from '../../engine/queries';
import { type EngineArgs, type EngineState, queryArrow } from '../../store/engineApi';
import { useAppStore } from '../../store/hooks';
import { type GridLayout } from './explorerEdits';
import { type ExportWorker } from './exportClient';
import { type ExportColumn, TOTAL_LABEL, downloadFile, exportColumns } from './exportFile';
import { type ExportFormat, type ExportTimings } from './exportWorkerApi';
import { GROUP_COLUMN, type GridScope } from './useGridSource';

export { type ExportFormat } from './exportWorkerApi';

/**
 * Rows per engine request while exporting. Every request aggregates the whole range again (about a second at
 * 10^6 rows), so as few as the query allows; the progress comes from the rows written, which the worker reports.
 */
export const EXPORT_CHUNK_ROWS = 100_000;
/** The performance entries of an export's steps, for the benchmark: engine, rows, file, download. */
export const EXPORT_MEASURES = {
  fetch: 'openrate:export-fetch',
  rows: 'openrate:export-rows',
  workbook: 'openrate:export-workbook',
  serialise: 'openrate:export-serialise',
  download: 'openrate:export-download',
  /** Not on the path's sum: from the choice to the export's worker started (its chunk loaded)... */
  start: 'openrate:export-start',
  /** ...and from there to its writer being ready, while the engine answers the first block. */
  writer: 'openrate:export-writer',
} as const;

export interface ExportProgress {
  format: ExportFormat;
  /** 0–1 of the rows written; 1 while the file is put together. */
  done: number;
}

export interface ExportInput {
  schema: DatasetSchema;
  scope: GridScope;
  layout: GridLayout;
  filterModel: unknown;
  /** The grid's value columns in their order (pivot cells when pivoted) with their widths. */
  values: Omit<ExportColumn, 'headers'>[];
  pivotValues: string[];
  locale: Locale;
  title: string;
}

const FILE_TYPES = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** Records a step of the export in the performance timeline; answers its end. */
function measure(name: string, start: number, timeMs?: number): number {
  const end = timeMs === undefined ? performance.now() : start + timeMs;
  // Not in every environment (jsdom); only the benchmark reads them.
  if (typeof performance.measure === 'function') performance.measure(name, { start, end });
  return end;
}

/**
 * The grid's sort for the engine's levels: the group column stands for every row group (each level sorts by its
 * own dimension and skips the others', as it skips any column it lacks).
 */
function levelSort(layout: GridLayout): GridLayout['sort'] {
  return layout.sort.flatMap((s) =>
    s.field === GROUP_COLUMN ? layout.rowGroups.map((field) => ({ field, desc: s.desc })) : [s],
  );
}

/**
 * The engine queries of an export: its leaf rows block by block (`blockRows` each), in the grid's order, and its
 * totals row.
 */
export function exportQueries(input: ExportInput, blockRows = EXPORT_CHUNK_ROWS) {
  const { scope, layout } = input;
  const base = {
    dataset: scope.dataset,
    dateField: scope.dateField,
    range: scope.range,
    filters: scope.filters,
    filterModel: input.filterModel ?? undefined,
    metrics: layout.metrics,
  };
  const wrap = <Q extends QueryInput>(query: Q): EngineArgs<Q> => ({
    workspaceId: scope.workspaceId,
    version: scope.version,
    query,
  });
  const pivot = layout.pivot ? { pivot: layout.pivot, pivotValues: input.pivotValues } : undefined;
  const rows = (page: { rowGroups: string[]; offset: number; limit: number; sort?: GridLayout['sort'] }) =>
    pivot
      ? wrap<QueryInput>({ kind: 'explorerPivot', ...base, ...pivot, ...page, levelSort: true })
      : wrap<QueryInput>({ kind: 'explorerRows', ...base, ...page, levelSort: true });
  const sort = levelSort(layout);
  return {
    block: (offset: number) => rows({ rowGroups: layout.rowGroups, offset, limit: blockRows, sort }),
    totals: layout.rowGroups.length ? rows({ rowGroups: [], offset: 0, limit: 1 }) : undefined,
  };
}

/** One block of an export's rows as the engine answered it, and where it starts. */
export interface ExportBlock<T> {
  answer: T;
  offset: number;
  rows: number;
}

/**
 * The blocks of an export in order, from offset 0 until the first block shorter than `blockRows` (no count first:
 * that would be one more pass over the range). Each next block is asked for as soon as the previous one has
 * arrived, so the engine answers it while the caller writes that one.
 */
export async function* exportBlocks<T>(
  fetchBlock: (offset: number) => Promise<T>,
  countRows: (answer: T) => number,
  blockRows = EXPORT_CHUNK_ROWS,
): AsyncGenerator<ExportBlock<T>> {
  let next: Promise<T> | undefined = fetchBlock(0);
  for (let offset = 0; next; offset += blockRows) {
    const answer: T = await next;
    const rows = countRows(answer);
    next = rows < blockRows ? undefined : fetchBlock(offset + blockRows);
    // A failure of the block asked for ahead surfaces when it is awaited, not as an unhandled rejection meanwhile.
    next?.catch(() => undefined);
    yield { answer, offset, rows };
  }
}

/**
 * Exports what the grid shows: one row per combination of the row groups (each group a column), the value
 * columns in the grid's order and a totals row. The engine's Arrow answers go straight to a worker that writes the
 * file (never into the store, never as one object per row), so the tab stays responsive; the user sees the
 * progress and can cancel.
 * Long because the block loop, its progress, cancel and the worker's life are one sequence best read in one place.
 */
export function useExplorerExport() {
  const store = useAppStore();
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const running = useRef<{ controller: AbortController; worker?: ExportWorker } | null>(null);

  const start = useCallback(
    async (format: ExportFormat, input: ExportInput) => {
      const chosen = performance.now();
      const run: { controller: AbortController; worker?: ExportWorker } = { controller: new AbortController() };
      running.current = run;
      const { signal } = run.controller;
      setProgress({ format, done: 0 });
      const queries = exportQueries(input);
      const fetchArrow = (args: EngineArgs<QueryInput>) =>
        queryArrow(args, store.getState as () => EngineState, 'visible', signal, store.dispatch);
      let fetchMs = 0;
      const timed = async <T>(work: Promise<T>) => {
        const started = performance.now();
        const result = await work;
        fetchMs += performance.now() - started;
        return result;
      };
      try {
        const { startExportWorker } = await import('./exportClient');
        if (signal.aborted) return;
        const worker = startExportWorker();
        run.worker = worker;
        const clicked = measure(EXPORT_MEASURES.start, chosen);
        // The totals row aggregates the range once more: the engine answers it alongside the rows.
        const totals = queries.totals && fetchArrow(queries.totals);
        totals?.catch(() => undefined);
        const { tableFromIPC } = await import('apache-arrow');
        let expected = EXPORT_CHUNK_ROWS;
        const onRows = (written: number) => {
          if (running.current === run) setProgress({ format, done: Math.min(1, written / expected) });
        };
        const columns = exportColumns(input.schema, input.layout.rowGroups, input.values, input.layout.pivot !== null);
        // The engine answers the first block while the worker loads its writer (exceljs's chunk, the header).
        // Reading a block's row count wraps the answer's buffers: no value is decoded here.
        const blocks = exportBlocks(
          (offset) => timed(fetchArrow(queries.block(offset))),
          (bytes) => tableFromIPC(bytes).numRows,
        );
        const first = blocks.next();
        first.catch(() => undefined);
        await worker.call((api) => api.begin(format, columns, input.locale, proxy(onRows)));
        measure(EXPORT_MEASURES.writer, clicked);
        for (let block = await first; !block.done; block = await blocks.next()) {
          const { answer, offset, rows } = block.value;
          expected = offset + rows + (rows < EXPORT_CHUNK_ROWS ? 0 : EXPORT_CHUNK_ROWS);
          await worker.call((api) => api.add(answer));
        }
        if (totals) {
          const bytes = await timed(totals);
          await worker.call((api) => api.add(bytes, { [input.layout.rowGroups[0]]: TOTAL_LABEL }));
        }
        if (signal.aborted) return;
        setProgress({ format, done: 1 });
        const { file, timings } = await worker.call((api) => api.finish());
        if (signal.aborted) return;
        const downloading = performance.now();
        downloadFile(file, `${input.title}.${format}`, FILE_TYPES[format]);
        recordSteps(clicked, fetchMs, timings, downloading);
      } catch (error) {
        if (!signal.aborted) console.error('Explorer export failed', (error as Error)?.message);
      } finally {
        run.worker?.terminate();
        if (running.current === run) {
          running.current = null;
          setProgress(null);
        }
      }
    },
    [store],
  );

  const cancel = useCallback(() => {
    running.current?.controller.abort();
    running.current?.worker?.terminate();
    running.current = null;
    setProgress(null);
  }, []);
  return { progress, start, cancel };
}

/** The steps' times, laid end to end from the click (the engine and the worker overlap a little). */
function recordSteps(clicked: number, fetchMs: number, timings: ExportTimings, downloading: number) {
  let at = measure(EXPORT_MEASURES.fetch, clicked, fetchMs);
  at = measure(EXPORT_MEASURES.rows, at, timings.rows);
  at = measure(EXPORT_MEASURES.workbook, at, timings.workbook);
  measure(EXPORT_MEASURES.serialise, at, timings.serialise);
  measure(EXPORT_MEASURES.download, downloading);
}
