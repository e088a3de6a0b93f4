import { useCallback, useRef, useState } from 'react';
import { type Locale } from '../../contracts/common';
import { type DatasetSchema } from '../../contracts/datasets';
import { type Cell, type EngineArgs, type QueryOf, type ResultColumns, engineApi } from '../../store/engineApi';
import { useAppDispatch } from '../../store/hooks';
import { type GridLayout } from './explorerEdits';
import { type ExportColumn, TOTAL_LABEL, downloadFile, exportColumns, exportCsv, exportXlsx } from './exportFile';
import { type GridScope } from './useGridSource';

/** Rows per engine request while exporting: large enough to be quick, small enough to show progress. */
export const EXPORT_CHUNK_ROWS = 5000;
export type ExportFormat = 'csv' | 'xlsx';

export interface ExportProgress {
  format: ExportFormat;
  /** 0–1 of the rows fetched. */
  done: number;
}

const rowsOf = (result: ResultColumns): Record<string, Cell>[] =>
  Array.from({ length: result.rowCount }, (_, i) =>
    Object.fromEntries(result.columns.map((column) => [column, result.data[column][i]])),
  );

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

/**
 * Exports what the grid shows: one row per combination of the row groups (each group a column), the value
 * columns in the grid's order and a totals row, fetched from the engine in chunks so the tab stays responsive;
 * the user sees the progress and can cancel.
 */
export function useExplorerExport() {
  const dispatch = useAppDispatch();
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const abort = useRef<AbortController | null>(null);

  const fetchRows = useCallback(
    async (args: EngineArgs<QueryOf<'explorerRows'>> | EngineArgs<QueryOf<'explorerPivot'>>, signal: AbortSignal) => {
      const request =
        args.query.kind === 'explorerPivot'
          ? dispatch(
              engineApi.endpoints.explorerPivot.initiate(args as EngineArgs<QueryOf<'explorerPivot'>>, {
                subscribe: false,
              }),
            )
          : dispatch(
              engineApi.endpoints.explorerRows.initiate(args as EngineArgs<QueryOf<'explorerRows'>>, {
                subscribe: false,
              }),
            );
      signal.addEventListener('abort', () => request.abort(), { once: true });
      return rowsOf(await request.unwrap());
    },
    [dispatch],
  );

  const start = useCallback(
    async (format: ExportFormat, input: ExportInput) => {
      const controller = new AbortController();
      abort.current = controller;
      setProgress({ format, done: 0 });
      const { scope, layout } = input;
      const base = {
        dataset: scope.dataset,
        dateField: scope.dateField,
        range: scope.range,
        filters: scope.filters,
        filterModel: input.filterModel ?? undefined,
        metrics: layout.metrics,
      };
      const wrap = <Q>(query: Q) => ({ workspaceId: scope.workspaceId, version: scope.version, query });
      const pivot = layout.pivot ? { pivot: layout.pivot, pivotValues: input.pivotValues } : undefined;
      const query = (rowGroups: string[], offset: number, limit: number) =>
        pivot
          ? wrap({ kind: 'explorerPivot' as const, ...base, ...pivot, rowGroups, offset, limit })
          : wrap({ kind: 'explorerRows' as const, ...base, rowGroups, offset, limit });
      try {
        const counted = await dispatch(
          engineApi.endpoints.explorerCount.initiate(
            wrap({ kind: 'explorerCount', ...base, ...pivot, rowGroups: layout.rowGroups }),
            {
              subscribe: false,
            },
          ),
        ).unwrap();
        const total = Number(counted.data.count?.[0] ?? 0);
        const rows: Record<string, Cell>[] = [];
        for (let offset = 0; offset < total; offset += EXPORT_CHUNK_ROWS) {
          rows.push(...(await fetchRows(query(layout.rowGroups, offset, EXPORT_CHUNK_ROWS), controller.signal)));
          if (controller.signal.aborted) return;
          setProgress({ format, done: Math.min(1, rows.length / Math.max(1, total)) });
        }
        const [totals] = layout.rowGroups.length ? await fetchRows(query([], 0, 1), controller.signal) : [undefined];
        if (controller.signal.aborted) return;
        if (totals && layout.rowGroups[0]) rows.push({ ...totals, [layout.rowGroups[0]]: TOTAL_LABEL });
        const table = {
          columns: exportColumns(input.schema, layout.rowGroups, input.values, layout.pivot !== null),
          rows,
        };
        if (format === 'csv') downloadFile(exportCsv(table, input.locale), `${input.title}.csv`, 'text/csv');
        else {
          const bytes = await exportXlsx(table, input.locale);
          if (controller.signal.aborted) return;
          downloadFile(
            bytes,
            `${input.title}.xlsx`,
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          );
        }
      } catch (error) {
        if (!controller.signal.aborted) console.error('Explorer export failed', (error as Error)?.message);
      } finally {
        if (abort.current === controller) {
          abort.current = null;
          setProgress(null);
        }
      }
    },
    [dispatch, fetchRows],
  );

  const cancel = useCallback(() => {
    abort.current?.abort();
    abort.current = null;
    setProgress(null);
  }, []);
  return { progress, start, cancel };
}
