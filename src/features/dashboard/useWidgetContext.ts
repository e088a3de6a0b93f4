import { skipToken } from '@reduxjs/toolkit/query';
import { useMemo } from 'react';
import { type Locale } from '../../contracts/common';
import { type DashboardConfig } from '../../contracts/reports';
import { useAppSelector } from '../../store/hooks';
import { useGetMeQuery } from '../auth/authApi';
import { localToday, resolveConfigDateRanges } from '../date-range/ranges';
import { selectFirstDayOfWeek } from '../prefs/prefsSlice';
import { useGetPublicFlagsQuery, useGetPublicWorkspaceQuery } from '../reports/reportsApi';
import { type DataScope, type WidgetContext } from '../widgets/types';
import { useGetWorkspaceFlagsQuery } from '../workspaces/workspacesApi';
import { hasGridLayout } from './layout';

const FALLBACK_LOCALE: Locale = 'en_US';
const NO_FLAGS: string[] = [];

/**
 * The workspace a dashboard's data belongs to, as the viewer may see it: the signed-in user's own workspace,
 * or on the public page the shared report's workspace (no sign-in).
 */
export function useDashboardWorkspace(scope: DataScope): { locale: Locale; flags: string[] } {
  const publicId = scope.publicReportId;
  const isPublic = publicId !== undefined;
  const { data: me } = useGetMeQuery(undefined, { skip: isPublic });
  const { data: publicWorkspace } = useGetPublicWorkspaceQuery(publicId ?? skipToken);
  const { data: ownFlags } = useGetWorkspaceFlagsQuery(isPublic ? skipToken : scope.workspaceId);
  const { data: publicFlags } = useGetPublicFlagsQuery(publicId ?? skipToken);
  const locale = isPublic
    ? publicWorkspace?.locale
    : me?.workspaces.find((workspace) => workspace.id === scope.workspaceId)?.locale;
  return { locale: locale ?? FALLBACK_LOCALE, flags: (isPublic ? publicFlags : ownFlags) ?? NO_FLAGS };
}

/** What every widget of a dashboard shares: its dates resolved today, its global filters and the viewer. */
export function useWidgetContext(
  config: DashboardConfig,
  scope: DataScope,
  editMode: boolean,
  canEdit: boolean,
): WidgetContext {
  const weekStart = useAppSelector(selectFirstDayOfWeek);
  const { locale, flags } = useDashboardWorkspace(scope);
  const today = localToday();
  const { dateRanges, filters } = config;
  const listLayout = !hasGridLayout(config.flags);
  const { workspaceId, publicReportId } = scope;
  // Pages may pass a new scope object on every render; widgets refetch only when what it names changes.
  const stableScope = useMemo(
    () => (publicReportId === undefined ? { workspaceId } : { workspaceId, publicReportId }),
    [workspaceId, publicReportId],
  );
  return useMemo(
    () => ({
      scope: stableScope,
      ranges: resolveConfigDateRanges(dateRanges, today, weekStart),
      filters: filters ?? [],
      locale,
      weekStart,
      flags,
      editMode,
      canEdit,
      listLayout,
    }),
    [stableScope, dateRanges, today, weekStart, filters, locale, flags, editMode, canEdit, listLayout],
  );
}
