import { useEffect, useId, useMemo } from 'react';
import { type DatasetSchema } from '../../contracts/datasets';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { DATASET_FETCH_ERROR, selectDatasetEntry } from '../datasets/datasetsSlice';
import { entryHolds, loadDataset } from '../datasets/loadDataset';
import { type DataScope, PROJECTION_PENDING } from './types';

export type WidgetDataStatus = 'loading' | 'ready' | 'error';

export interface WidgetData {
  status: WidgetDataStatus;
  /** Fraction of the file downloaded (0–1), or null while the size is unknown. */
  progress: number | null;
  schema?: DatasetSchema;
  /** The dataset version in the engine; queries pass it so a new file gives new results. */
  version?: string;
  error?: string;
}

/**
 * A widget's dataset: downloads it once per workspace (or through the public report's link) and tells
 * whether it can be queried. A refresh keeps the previous file queryable, so a widget stays 'ready'.
 */
export function useWidgetData(scope: DataScope, datasetId: string | null): WidgetData {
  const dispatch = useAppDispatch();
  const { workspaceId, publicReportId, projection } = scope;
  const entry = useAppSelector((state) => (datasetId ? selectDatasetEntry(state, workspaceId, datasetId) : undefined));
  // The engine's table holds every column and day this widget's dashboard (or, without a projection, anyone) may read.
  const { schema, version, columns, since } = entry ?? {};
  const held = useMemo(
    () =>
      !!schema && !!version && projection !== PROJECTION_PENDING && entryHolds({ columns, since }, schema, projection),
    [schema, version, columns, since, projection],
  );

  // A load ended without what this widget needs (a narrower projection loaded meanwhile): it asks again.
  const lacking = entry?.status === 'ready' && !held;
  useEffect(() => {
    if (datasetId && projection !== PROJECTION_PENDING) {
      void dispatch(loadDataset({ workspaceId, datasetId, publicReportId, projection }));
    }
  }, [dispatch, workspaceId, datasetId, publicReportId, projection, lacking]);

  // An earlier visit's version the server could not confirm: its queries would wait for a load that failed.
  if (entry?.kept && entry.status === 'error') {
    return { status: 'error', progress: null, error: entry.error ?? DATASET_FETCH_ERROR };
  }
  if (entry?.schema && entry.version && held) {
    return { status: 'ready', progress: 1, schema: entry.schema, version: entry.version };
  }
  if (entry?.status === 'error') return { status: 'error', progress: null, error: entry.error ?? DATASET_FETCH_ERROR };
  const progress = entry?.total ? Math.min(1, entry.loaded / entry.total) : null;
  return { status: 'loading', progress };
}

/**
 * The supersede key of one rendered widget's queries: a new query (a date change) cancels its stale one.
 * It is per instance, so the configure drawer's live preview and the same widget on the canvas do not
 * cancel each other.
 */
export function useSupersedeKey(widgetId: string): string {
  return `${widgetId}${useId()}`;
}
