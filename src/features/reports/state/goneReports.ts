import { startAppListening } from '../../../store/listeners';
import { errorStatus } from '../../session/apiErrors';
import { reportsApi } from '../reportsApi';
import { documentClosed, reportKey } from './reportDocumentActions';

/**
 * A report that is gone (deleted, or no longer shared with the user) takes its unsaved changes with it: a 404
 * for it closes its document, wherever the answer was asked for.
 */
export function closeGoneReports(): () => void {
  return startAppListening({
    matcher: reportsApi.endpoints.getReport.matchRejected,
    effect: (action, listenerApi) => {
      if (errorStatus(action.payload) !== 404) return;
      const { type, id } = action.meta.arg.originalArgs;
      listenerApi.dispatch(documentClosed({ key: reportKey(type, id) }));
    },
  });
}
