import { addAppListener } from '../../../store/listeners';
import type { AppDispatch, RootState } from '../../../store/store';
import { type ReportRef, reportsApi } from '../reportsApi';
import { readDraft } from './draftPersistence';
import { draftRestored, remoteReportLoaded, reportKey } from './reportDocumentSlice';

/**
 * A report page opened: a draft from an earlier visit becomes the document, then every server copy of the report
 * (the cached one, the first answer, each refetch) is taken in while the page stays open. Returns what closes it.
 * Only an open page's report gets a document: the share drawer asks for reports that are not open.
 */
export const reportOpened =
  (ref: ReportRef, memberId: number, storage: Pick<Storage, 'getItem'>) =>
  (dispatch: AppDispatch, getState: () => RootState): (() => void) => {
    const key = reportKey(ref.type, ref.id);
    const draft = readDraft(storage, memberId, key);
    if (draft) dispatch(draftRestored({ key, draft }));
    const cached = reportsApi.endpoints.getReport.select(ref)(getState()).data;
    if (cached) dispatch(remoteReportLoaded({ key, report: cached }));
    return dispatch(
      addAppListener({
        matcher: reportsApi.endpoints.getReport.matchFulfilled,
        effect: (action, api) => {
          const { type, id } = action.meta.arg.originalArgs;
          if (reportKey(type, id) === key) api.dispatch(remoteReportLoaded({ key, report: action.payload }));
        },
      }),
    );
  };
