import { useMemo } from 'react';
import { type ReportConfig, type ReportType } from '../../contracts/reports';
import { useAppDispatch } from '../../store/hooks';
import { notificationShown } from '../notifications/notificationsSlice';
import { limitMessage } from '../session/apiErrors';
import {
  useCreateReportMutation,
  useDeleteReportMutation,
  useDuplicateReportMutation,
  useRenameReportMutation,
  type ReportRef,
} from './reportsApi';

/** The route of a report page, or of the reports home. */
export const reportPath = (workspaceId: number, report?: { type: ReportType; id: number } | null) =>
  report ? `/workspaces/${workspaceId}/reports/${report.type}/${report.id}` : `/workspaces/${workspaceId}/reports`;

/**
 * The report list's actions with their toasts (spec 2 §8), shared by the home's row menu and the tab strip.
 * Each resolves to the result, or null when it failed (the toast has said so) or was ignored.
 */
export function useReportActions(workspaceId: number) {
  const dispatch = useAppDispatch();
  const [createReport] = useCreateReportMutation();
  const [renameReport] = useRenameReportMutation();
  const [deleteReport] = useDeleteReportMutation();
  const [duplicateReport] = useDuplicateReportMutation();

  return useMemo(() => {
    const toast = (message: string, intent: 'success' | 'danger') => dispatch(notificationShown(message, intent));
    const ref = (report: { type: ReportType; id: number }): ReportRef => ({
      workspaceId,
      type: report.type,
      id: report.id,
    });
    return {
      async create(type: ReportType, title: string, config: ReportConfig) {
        try {
          const created = await createReport({ workspaceId, type, title, config }).unwrap();
          toast('Successfully created report', 'success');
          return created;
        } catch (error) {
          toast(limitMessage(error) ?? 'Failed to create report', 'danger');
          return null;
        }
      },
      /** Spec 2 §5: an empty title (or an unchanged one) is ignored. */
      async rename(report: { type: ReportType; id: number; title: string }, title: string) {
        const trimmed = title.trim();
        if (!trimmed || trimmed === report.title) return null;
        try {
          const renamed = await renameReport({ ...ref(report), title: trimmed }).unwrap();
          toast('Report renamed', 'success');
          return renamed;
        } catch {
          toast('Failed to rename report', 'danger');
          return null;
        }
      },
      async remove(report: { type: ReportType; id: number }) {
        try {
          const result = await deleteReport(ref(report)).unwrap();
          toast('Deleted report', 'success');
          return result;
        } catch {
          toast('Failed to delete report', 'danger');
          return null;
        }
      },
      async duplicate(report: { type: ReportType; id: number }) {
        try {
          const copy = await duplicateReport(ref(report)).unwrap();
          toast('Report duplicated', 'success');
          return copy;
        } catch (error) {
          toast(limitMessage(error) ?? 'Failed to duplicate report', 'danger');
          return null;
        }
      },
    };
  }, [dispatch, workspaceId, createReport, renameReport, deleteReport, duplicateReport]);
}
