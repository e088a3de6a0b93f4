import './reportPage.css';
import { NonIdealState, Spinner } from '@blueprintjs/core';
import { Suspense, useEffect, useRef } from 'react';
import { useParams } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { errorStatus } from '../session/apiErrors';
import { useCurrentUser } from '../shell/useCurrentWorkspace';
import { NewerVersionNotice } from './components/NewerVersionNotice';
import { ReportTitleBar } from './components/ReportTitleBar';
import { ReportToolbar } from './components/ReportToolbar';
import {
  REPORT_POLL_MS,
  type ReportRef,
  reportRefOf,
  useGetReportQuery,
  useMarkReportOpenedMutation,
} from './reportsApi';
import { useReportView } from './reportViews';
import { reportOpened } from './state/openedReport';
import { reportKey, selectDocument } from './state/reportDocumentSlice';

const VIEW_NOT_FOUND = 'View not found';

/** A report page: /workspaces/:workspaceId/reports/:objectType/:objectId (spec 2 §2). */
export function ReportPage() {
  const ref = reportRefOf(useParams());
  if (!ref) return <NonIdealState icon="search" title={VIEW_NOT_FOUND} />;
  // Keyed so that moving to another report starts from that report's own document and state.
  return <LoadedReportPage key={reportKey(ref.type, ref.id)} reportRef={ref} />;
}

function LoadedReportPage({ reportRef }: { reportRef: ReportRef }) {
  const dispatch = useAppDispatch();
  const key = reportKey(reportRef.type, reportRef.id);
  const { data: report, error } = useGetReportQuery(reportRef, { pollingInterval: REPORT_POLL_MS });
  const document = useAppSelector((state) => selectDocument(state, key));
  const [markOpened] = useMarkReportOpenedMutation();
  const { View, preload } = useReportView(reportRef.type);
  useEffect(() => void preload?.().catch(() => undefined), [preload]);

  // Once per visit, even though development's strict mode runs effects twice.
  const marked = useRef(false);
  useEffect(() => {
    if (marked.current) return;
    marked.current = true;
    void markOpened(reportRef);
  }, [markOpened, reportRef]);

  // While the page is open its document follows the server copy; a draft from an earlier visit comes first.
  const { memberId } = useCurrentUser();
  const { workspaceId, type, id } = reportRef;
  useEffect(
    () => dispatch(reportOpened({ workspaceId, type, id }, memberId, window.localStorage)),
    [dispatch, workspaceId, type, id, memberId],
  );

  // A report that is gone (deleted, or no longer shared with the user): its document is closed by closeGoneReports.
  const gone = errorStatus(error) === 404;

  if (gone) return <NonIdealState icon="search" title={VIEW_NOT_FOUND} />;
  if (error && !report) {
    return <NonIdealState icon="error" title="Yikes! Something went wrong fetching your data." />;
  }
  const spinner = <Spinner className="or-page-spinner" />;
  if (!report || !document) return spinner;

  return (
    <div className="or-report-page">
      <ReportTitleBar title={document.title} />
      <ReportToolbar report={report} reportKey={key} document={document} />
      <NewerVersionNotice report={report} reportKey={key} dirty={document.dirty} />
      <Suspense fallback={spinner}>
        <View report={report} reportKey={key} config={document.config} />
      </Suspense>
    </div>
  );
}
