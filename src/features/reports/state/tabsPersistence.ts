import { isAnyOf } from '@reduxjs/toolkit';
import { z } from 'zod';
import { reportTypeSchema } from '../../../contracts/reports';
import { startAppListening } from '../../../store/listeners';
import { reportsApi } from '../reportsApi';
import { readPerWorkspace } from './perWorkspaceStorage';
import {
  initialTabsState,
  MAX_TABS,
  reportsListed,
  tabClosed,
  tabsSlice,
  type TabsState,
  tabTitleSynced,
} from './tabsSlice';

/** One key per workspace, so one workspace's strip is written without touching the others. */
export const TABS_KEY_PREFIX = 'reportTabs:';
export const tabsKey = (workspaceId: number | string) => `${TABS_KEY_PREFIX}${workspaceId}`;

const refSchema = z.object({ objectType: reportTypeSchema, objectId: z.number().int().positive() });
const storedStripSchema = z.object({
  tabs: z.array(refSchema.extend({ title: z.string(), openedAt: z.number() })).max(MAX_TABS),
  active: refSchema.nullable(),
});

/** Reads every workspace's stored strip; an unreadable entry is left out (that workspace starts at Home). */
export function loadTabsState(storage: Pick<Storage, 'getItem' | 'key' | 'length'>): TabsState {
  return { ...initialTabsState, byWorkspace: readPerWorkspace(storage, TABS_KEY_PREFIX, storedStripSchema) };
}

// Every action of the tabs slice changes one workspace's strip, and each names that workspace.
const tabChanges = isAnyOf(...Object.values(tabsSlice.actions));

/**
 * Keeps the tab strips in step with the reports and in local storage: a fetched list closes the tabs of reports
 * that are gone and refreshes titles; a rename or delete anywhere (home, tab strip, report page) updates its tab.
 * Returns the function that stops it.
 */
export function startTabsListeners(storage: Pick<Storage, 'setItem'>): () => void {
  const stops = [
    startAppListening({
      matcher: tabChanges,
      effect: (action, api) => {
        const workspaceId = String(action.payload.workspaceId);
        const strip = api.getState().tabs.byWorkspace[workspaceId];
        if (strip) storage.setItem(tabsKey(workspaceId), JSON.stringify(strip));
      },
    }),
    startAppListening({
      matcher: reportsApi.endpoints.getReports.matchFulfilled,
      effect: (action, api) => {
        api.dispatch(
          reportsListed({
            workspaceId: action.meta.arg.originalArgs,
            requestedAt: action.meta.startedTimeStamp,
            reports: action.payload.map((report) => ({
              objectType: report.type,
              objectId: report.id,
              title: report.title,
            })),
          }),
        );
      },
    }),
    startAppListening({
      matcher: reportsApi.endpoints.renameReport.matchFulfilled,
      effect: (action, api) => {
        const { workspaceId, type, id } = action.meta.arg.originalArgs;
        api.dispatch(tabTitleSynced({ workspaceId, objectType: type, objectId: id, title: action.payload.title }));
      },
    }),
    startAppListening({
      matcher: reportsApi.endpoints.deleteReport.matchFulfilled,
      effect: (action, api) => {
        const { workspaceId, type, id } = action.meta.arg.originalArgs;
        api.dispatch(tabClosed({ workspaceId, objectType: type, objectId: id }));
      },
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
