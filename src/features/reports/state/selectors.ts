import { createSelector } from '@reduxjs/toolkit';
import { type AccessLevel, type ReportSummary, type ReportType } from '../../../contracts/reports';
import type { RootState } from '../../../store/store';
import { reportsApi } from '../reportsApi';
import { type ReportListView, selectReportListView } from './reportsListSlice';

/** Spec 2 §2: the groups of the modifiedAt ordering, newest first. */
export const ageBuckets = ['Today', 'Last 7 days', 'Last 30 days', 'Older'] as const;
export type AgeBucket = (typeof ageBuckets)[number];

/** Spec 2 §2: a label longer than this gets a tooltip. */
export const TOOLTIP_ABOVE_CHARS = 20;
export const needsTooltip = (label: string) => label.length > TOOLTIP_ABOVE_CHARS;

/** The bucket of a modification time: the same local calendar day as `now`, else by whole days back. */
export function ageBucketOf(modifiedAt: string | Date, now: Date): AgeBucket {
  const modified = new Date(modifiedAt).getTime();
  // Calendar days, not multiples of 24 hours, so a daylight-saving change does not move the boundaries.
  const startOfDay = (daysBack: number) =>
    new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBack).getTime();
  if (modified >= startOfDay(0)) return 'Today';
  if (modified >= startOfDay(6)) return 'Last 7 days';
  if (modified >= startOfDay(29)) return 'Last 30 days';
  return 'Older';
}

export type ListFilters = Pick<ReportListView, 'ownership' | 'type'> & { search: string };

/** The reports the search, ownership (created_by against the current user) and type filters keep. */
export function filterReports(
  reports: readonly ReportSummary[],
  { search, ownership, type }: ListFilters,
  currentUserId: number,
): ReportSummary[] {
  const needle = search.trim().toLocaleLowerCase();
  return reports.filter((report) => {
    if (needle && !report.title.toLocaleLowerCase().includes(needle)) return false;
    if (type !== 'all' && report.type !== type) return false;
    const mine = report.created_by?.id === currentUserId;
    if (ownership === 'me' && !mine) return false;
    if (ownership === 'notMe' && mine) return false;
    return true;
  });
}

export interface ReportGroup {
  /** The group heading; null for a flat list. */
  label: AgeBucket | null;
  reports: ReportSummary[];
}

const byTitle = (a: ReportSummary, b: ReportSummary) =>
  a.title.localeCompare(b.title, undefined, { sensitivity: 'base', numeric: true }) || a.id - b.id;

/**
 * The list as shown: by last opened (never opened last, then newest modified), by modified time in age groups
 * (empty groups left out), or flat by title.
 */
export function orderReports(
  reports: readonly ReportSummary[],
  order: ReportListView['order'],
  now: Date,
): ReportGroup[] {
  const sorted = [...reports];
  switch (order) {
    case 'title':
      return [{ label: null, reports: sorted.sort(byTitle) }];
    case 'lastOpenedAt':
      sorted.sort(
        (a, b) =>
          newestTime(a.last_opened_at, b.last_opened_at) || newestTime(a.modified_at, b.modified_at) || b.id - a.id,
      );
      return [{ label: null, reports: sorted }];
    case 'modifiedAt': {
      sorted.sort((a, b) => newestTime(a.modified_at, b.modified_at) || b.id - a.id);
      return ageBuckets
        .map((label) => ({ label, reports: sorted.filter((report) => ageBucketOf(report.modified_at, now) === label) }))
        .filter((group) => group.reports.length > 0);
    }
  }
}

/** Newest first by time, a missing time last. Timestamps are compared as instants, not as text. */
function newestTime(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return new Date(b).getTime() - new Date(a).getTime();
}

const NO_REPORTS: readonly ReportSummary[] = [];

/** The workspace's report list as the server last sent it, read from the API cache. */
const selectWorkspaceReports = (state: RootState, workspaceId: number): readonly ReportSummary[] =>
  reportsApi.endpoints.getReports.select(workspaceId)(state).data ?? NO_REPORTS;

/**
 * The reports home list as shown: the workspace's reports, filtered by the search and its stored view, ordered
 * and grouped. `today` (yyyy-MM-dd, the viewer's day) draws the age groups, so the groups move at midnight.
 */
export const selectReportGroups = createSelector(
  [
    selectWorkspaceReports,
    (state: RootState, workspaceId: number) => selectReportListView(state, workspaceId),
    (_state: RootState, _workspaceId: number, search: string) => search,
    (_state: RootState, _workspaceId: number, _search: string, memberId: number) => memberId,
    (_state: RootState, _workspaceId: number, _search: string, _memberId: number, today: string) => today,
  ],
  (reports, view, search, memberId, today): ReportGroup[] =>
    orderReports(filterReports(reports, { ...view, search }, memberId), view.order, new Date(`${today}T00:00:00`)),
);

const accessKey = (type: ReportType, id: number) => `${type}/${id}`;

/** Each report's access level as the workspace's list says; until the list says otherwise, read-only. */
export const selectAccessLevelOf = createSelector([selectWorkspaceReports], (reports) => {
  const levels = new Map(reports.map((report) => [accessKey(report.type, report.id), report.access_level]));
  return (type: ReportType, id: number): AccessLevel => levels.get(accessKey(type, id)) ?? 'read';
});
