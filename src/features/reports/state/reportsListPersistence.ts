import { startAppListening } from '../../../store/listeners';
import { readPerWorkspace } from './perWorkspaceStorage';
import { listViewSchema, reportListViewChanged, selectReportListView, type ReportsListState } from './reportsListSlice';

export const LIST_VIEW_KEY_PREFIX = 'reportListView:';
export const listViewKey = (workspaceId: number | string) => `${LIST_VIEW_KEY_PREFIX}${workspaceId}`;

/** Reads every workspace's stored order and filters; unknown values fall back to the defaults one by one. */
export function loadReportsListState(storage: Pick<Storage, 'getItem' | 'key' | 'length'>): ReportsListState {
  return { byWorkspace: readPerWorkspace(storage, LIST_VIEW_KEY_PREFIX, listViewSchema) };
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
