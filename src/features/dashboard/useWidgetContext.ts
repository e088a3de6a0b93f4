import { skipToken } from '@reduxjs/toolkit/query';
import { useMemo } from 'react';
import { type Locale } from '../../contracts/common';
import { type DashboardConfig } from '../../contracts/reports';
import { targetIdsOfConfig } from '../../contracts/targets';
import { type DateRanges } from '../../engine/dates';
import { useAppSelector } from '../../store/hooks';
import { useGetMeQuery } from '../auth/authApi';
import { projectionFirstDay, targetReads } from '../datasets/projection';
import { localToday, resolveConfigDateRanges } from '../date-range/ranges';
import { selectFirstDayOfWeek } from '../prefs/prefsSlice';
import { useGetPublicFlagsQuery, useGetPublicWorkspaceQuery } from '../reports/reportsApi';
import { useGetTargetsQuery } from '../targets/targetsApi';
import { type DataScope, PROJECTION_PENDING, type WidgetContext } from '../widgets/types';
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

/**
 * What a signed-in viewer's dashboard reads, so its widgets load only those columns and the rows of those days
 * (issue 20): none in edit mode, where the user may add any field, nor on the public page, whose files are already
 * its report's scope. Pending while the targets its target cards show load; without them (an error), the whole
 * datasets. The first day changes with the ranges only when they reach into another month.
 */
function useDashboardProjection(
  config: DashboardConfig,
  scope: DataScope,
  editMode: boolean,
  ranges: DateRanges,
): DataScope['projection'] {
  const projecting = !editMode && scope.publicReportId === undefined;
  const { widgets, filters } = config;
  const targetIds = useMemo(() => targetIdsOfConfig({ widgets }), [widgets]);
  const targets = useGetTargetsQuery(scope.workspaceId, { skip: !projecting || targetIds.length === 0 });
  const targetData = targets.data?.data;
  const targetsFailed = targets.isError;
  const shown = useMemo(() => targetData?.filter((target) => targetIds.includes(target.id)), [targetData, targetIds]);
  const firstDay = projectionFirstDay([
    ranges.main.start,
    ...(ranges.compare ? [ranges.compare.start] : []),
    ...(shown ?? []).map((target) => target.dateStart),
  ]);
  return useMemo(() => {
    if (!projecting) return undefined;
    if (targetIds.length === 0) return { widgets, filters, targets: [], firstDay };
    if (targetsFailed) return undefined;
    if (!shown) return PROJECTION_PENDING;
    return { widgets, filters, targets: targetReads(shown), firstDay };
  }, [projecting, widgets, filters, targetIds, shown, targetsFailed, firstDay]);
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
  const ranges = useMemo(() => resolveConfigDateRanges(dateRanges, today, weekStart), [dateRanges, today, weekStart]);
  const projection = useDashboardProjection(config, scope, editMode, ranges);
  // Pages may pass a new scope object on every render; widgets refetch only when what it names changes.
  const stableScope = useMemo(
    () =>
      publicReportId !== undefined
        ? { workspaceId, publicReportId }
        : projection
          ? { workspaceId, projection }
          : { workspaceId },
    [workspaceId, publicReportId, projection],
  );
  return useMemo(
    () => ({
      scope: stableScope,
      ranges,
      filters: filters ?? [],
      locale,
      weekStart,
      flags,
      editMode,
      canEdit,
      listLayout,
    }),
    [stableScope, ranges, weekStart, filters, locale, flags, editMode, canEdit, listLayout],
  );
}
