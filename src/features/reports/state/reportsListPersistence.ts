import { startAppListening } from '../../../store/listeners';
import { listViewSchema, reportListViewChanged, selectReportListView, type ReportsListState } from './reportsListSlice';

export const LIST_VIEW_KEY_PREFIX = 'reportListView:';
export const listViewKey = (workspaceId: number | string) => `${LIST_VIEW_KEY_PREFIX}${workspaceId}`;

/** Reads every workspace's stored order and filters; unknown values fall back to the defaults one by one. */
export function loadReportsListState(storage: Pick<Storage, 'getItem' | 'key' | 'length'>): ReportsListState {
  const byWorkspace: ReportsListState['byWorkspace'] = {};
  for (let index = 0; index < storage.length; index++) {
    const key = storage.key(index);
    if (!key?.startsWith(LIST_VIEW_KEY_PREFIX)) continue;
    const workspaceId = key.slice(LIST_VIEW_KEY_PREFIX.length);
    if (!/^[1-9]\d*$/.test(workspaceId)) continue;
    try {
      const parsed = listViewSchema.safeParse(JSON.parse(storage.getItem(key) ?? 'null'));
      if (parsed.success) byWorkspace[workspaceId] = parsed.data;
    } catch {
      // Not JSON: that workspace keeps the default view.
    }
  }
  return { byWorkspace };
}

/** Writes a workspace's order and filters back to storage when they change; returns the function that stops it. */
export function persistReportsList(storage: Pick<Storage, 'setItem'>): () => void {
  return startAppListening({
    actionCreator: reportListViewChanged,
    effect: (action, api) => {
      const { workspaceId } = action.payload;
      storage.setItem(listViewKey(workspaceId), JSON.stringify(selectReportListView(api.getState(), workspaceId)));
    },
  });
}
