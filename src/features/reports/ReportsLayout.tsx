import { useEffect } from 'react';
import { Outlet, useParams } from 'react-router-dom';
import { reportTypeSchema } from '../../contracts/reports';
import { useAppDispatch, useAppStore } from '../../store/hooks';
import { useCurrentWorkspace } from '../shell/useCurrentWorkspace';
import { TabStrip } from './components/TabStrip';
import { REPORT_POLL_MS, reportsApi, useGetReportsQuery } from './reportsApi';
import { homeTabOpened, tabOpened } from './state/tabsSlice';
import './reports.css';

/**
 * The reports area of a workspace: the tab strip over the home or a report page. The URL decides what is shown;
 * reaching a report by URL opens (or focuses) its tab (spec 2 §4), reaching home focuses the Home tab.
 */
export function ReportsLayout() {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const workspaceId = useCurrentWorkspace().id;
  const { objectType, objectId } = useParams();
  // Polled here (spec 2 §9) so that tabs of deleted reports close on every report page, not only on home.
  useGetReportsQuery(workspaceId, { pollingInterval: REPORT_POLL_MS });

  useEffect(() => {
    if (objectType === undefined) {
      dispatch(homeTabOpened({ workspaceId }));
      return;
    }
    const type = reportTypeSchema.safeParse(objectType);
    const id = Number(objectId);
    // A malformed address gets no tab; the report page says it is not found.
    if (!type.success || !Number.isInteger(id) || id <= 0) return;
    const listed = reportsApi.endpoints.getReports
      .select(workspaceId)(store.getState())
      .data?.find((report) => report.type === type.data && report.id === id);
    dispatch(tabOpened({ workspaceId, objectType: type.data, objectId: id, title: listed?.title }));
  }, [dispatch, store, workspaceId, objectType, objectId]);

  return (
    <div className="or-reports-layout">
      <TabStrip workspaceId={workspaceId} />
      <div className="or-reports-body">
        <Outlet />
      </div>
    </div>
  );
}
