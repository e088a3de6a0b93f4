import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { PUBLIC_LINK_WIDENED } from '../../contracts/reports';
import { useAppDispatch, useAppStore } from '../../store/hooks';
import { notificationShown } from '../notifications/notificationsSlice';
import { errorCode, limitMessage } from '../session/apiErrors';
import { type ReportRef, useSaveReportMutation, versionConflictOf } from './reportsApi';
import { discarded, reportKey, saveConflicted, saved, selectSaveInput } from './state/reportDocumentSlice';
import { type SaveChoice } from './state/saveChoices';
import { reportPath } from './useReportActions';

/**
 * Saves the report's local document on top of the version it was based on. A stale base is refused by the
 * server (409) and raises the newer-version notice; 'Save as new view' keeps the changes as a new report,
 * opens it and leaves the original as the server has it.
 */
export function useSaveReport(ref: ReportRef) {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const navigate = useNavigate();
  const [saveReport, { isLoading }] = useSaveReportMutation();
  const { workspaceId, type, id } = ref;

  const save = useCallback(
    async (choice: SaveChoice) => {
      const key = reportKey(type, id);
      const input = selectSaveInput(store.getState(), key);
      if (!input) return;
      const { config, title, version } = input;
      const saveAsNewView = choice === 'saveAsNewView';
      try {
        const report = await saveReport({
          workspaceId,
          type,
          id,
          body: { config, title, version, ...(saveAsNewView ? { saveAsNewView } : {}) },
        }).unwrap();
        if (saveAsNewView) {
          dispatch(discarded({ key }));
          void navigate(reportPath(workspaceId, report));
        } else {
          dispatch(saved({ key, report, snapshot: { config, title } }));
        }
      } catch (error) {
        const conflict = versionConflictOf(error);
        if (conflict) dispatch(saveConflicted({ key, version: conflict.version, modifiedBy: conflict.modifiedBy }));
        // The editor can act on this one: keep the filters or ask someone with full access.
        else if (errorCode(error) === PUBLIC_LINK_WIDENED) dispatch(notificationShown(PUBLIC_LINK_WIDENED, 'danger'));
        else dispatch(notificationShown(limitMessage(error) ?? 'Failed to update report', 'danger'));
      }
    },
    [dispatch, navigate, saveReport, store, workspaceId, type, id],
  );
  return { save, saving: isLoading };
}
