import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type ExplorerConfig } from '../../contracts/reports';
import { debounce } from '../widgets/rich_text/richText';
import { columnFilterChanged, filtersCleared } from './explorerEdits';

/** Spec 2 §9: a filter change applies to the grid at once and becomes a report edit 400 ms after the last one. */
export const FILTER_MODEL_DEBOUNCE_MS = 400;

type FilterModel = ExplorerConfig['filterModel'];

export interface GridFilters {
  /** The filter model the grid applies: the config's, or a change not saved to it yet. */
  model: FilterModel;
  /** One column's filter, or none. */
  setFilter(colId: string, filter: unknown): void;
  clear(): void;
}

/**
 * The grid's filters. A burst of filter changes (typing in several filters, applying one after another) makes one
 * report edit, so one undo step; the grid queries each change as it comes. The one place the filter model is
 * debounced: the text filters' own 120 ms is how long typing must pause before a change comes at all.
 */
export function useFilterModel(
  config: ExplorerConfig,
  onEdit: (edit: (config: ExplorerConfig) => ExplorerConfig) => void,
): GridFilters {
  const [draft, setDraft] = useState<{ base: FilterModel; model: FilterModel } | null>(null);
  // A change made elsewhere (undo, Clear filters, a reload) replaces one not saved yet.
  const model = draft && draft.base === config.filterModel ? draft.model : (config.filterModel ?? null);
  const latest = useRef({ config, model });
  latest.current = { config, model };
  const save = useMemo(
    () =>
      debounce((base: FilterModel, next: FilterModel) => {
        if (latest.current.config.filterModel === base) onEdit((current) => ({ ...current, filterModel: next }));
      }, FILTER_MODEL_DEBOUNCE_MS),
    [onEdit],
  );
  useEffect(() => () => save.flush(), [save]);
  const setFilter = useCallback(
    (colId: string, filter: unknown) => {
      const { config: current, model: shown } = latest.current;
      const next = columnFilterChanged({ ...current, filterModel: shown }, colId, filter).filterModel ?? null;
      latest.current = { config: current, model: next };
      setDraft({ base: current.filterModel, model: next });
      save(current.filterModel, next);
    },
    [save],
  );
  const clear = useCallback(() => {
    save.cancel();
    setDraft(null);
    onEdit(filtersCleared);
  }, [save, onEdit]);
  return useMemo(() => ({ model, setFilter, clear }), [model, setFilter, clear]);
}
