import { engagementSegments, type EngagementSegmentId } from '../../contracts/catalogue';

/** The waffle's grid (spec 3 §9): 20 rows by 60 columns, each cell a share of the month's contacts. */
export const WAFFLE_ROWS = 20;
export const WAFFLE_COLUMNS = 60;
export const WAFFLE_CELLS = WAFFLE_ROWS * WAFFLE_COLUMNS;
/** Month labels of the picker (spec 3 §9: months labelled Jan to Dec). */
export const MONTH_LABELS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** One engagement row (spec 3 §3) as the engagement_segments dataset stores it: flows are columns. */
export type EngagementRow = {
  date: string;
  integration_id: string;
  integration_name: string;
  segment_id: EngagementSegmentId;
  segment_name: string;
  size: number;
  inflow_new: number;
  outflow_gone: number;
} & Record<`inflow_from_${EngagementSegmentId}` | `outflow_to_${EngagementSegmentId}`, number>;

/** A row of the engine's segment table query: a segment's row, or the Total row (segment_id null). */
export type SegmentTableRow = Omit<EngagementRow, 'date' | 'integration_id' | 'integration_name' | 'segment_id'> & {
  segment_id: EngagementSegmentId | null;
  share: number | null;
  days_since_last_click: number | null;
  click_frequency: number | null;
  click_rate: number | null;
};

/**
 * Cells per segment, in the order given: each segment's exact share of 1200 floored, the cells left over going to
 * the largest remainders (ties to the earlier segment), so the counts sum to 1200 exactly and the same sizes always
 * give the same cells. A segment of 0 gets no cell; a month without contacts gets an empty waffle (all 0).
 */
export function waffleCellCounts(sizes: readonly number[]): number[] {
  const total = sizes.reduce((sum, size) => sum + Math.max(0, size), 0);
  if (total === 0) return sizes.map(() => 0);
  const exact = sizes.map((size) => (Math.max(0, size) * WAFFLE_CELLS) / total);
  const counts = exact.map(Math.floor);
  const left = WAFFLE_CELLS - counts.reduce((sum, n) => sum + n, 0);
  const byRemainder = exact.map((value, index) => ({ index, remainder: value - counts[index] }));
  byRemainder.sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder.slice(0, left)) counts[index] += 1;
  return counts;
}

/** The segment index of each of the 1200 cells, row by row, segments in order (empty for an empty waffle). */
export function waffleCells(counts: readonly number[]): number[] {
  return counts.flatMap((count, index) => Array.from({ length: count }, () => index));
}

export type FlowSource = EngagementSegmentId | 'joined';
export type FlowTarget = EngagementSegmentId | 'gone';
export interface FlowModel {
  segmentId: EngagementSegmentId;
  /** Where this month's members came from: a previous segment, or 'joined' (in no segment last month). */
  inflow: { from: FlowSource; size: number }[];
  /** Where last month's members went: a segment this month, or 'gone' (in none). */
  outflow: { to: FlowTarget; size: number }[];
}

/** The flow diagram of one segment's row, flows of 0 left out; null when there are no flows at all. */
export function flowModel(row: SegmentTableRow | EngagementRow | undefined): FlowModel | null {
  if (!row?.segment_id) return null;
  const inflow = [
    ...engagementSegments.map((segment) => ({
      from: segment.id as FlowSource,
      size: row[`inflow_from_${segment.id}`],
    })),
    { from: 'joined' as const, size: row.inflow_new },
  ].filter((flow) => flow.size > 0);
  const outflow = [
    ...engagementSegments.map((segment) => ({ to: segment.id as FlowTarget, size: row[`outflow_to_${segment.id}`] })),
    { to: 'gone' as const, size: row.outflow_gone },
  ].filter((flow) => flow.size > 0);
  return inflow.length || outflow.length ? { segmentId: row.segment_id, inflow, outflow } : null;
}

/** An integration and its months (ISO dates of the first of the month), oldest first. */
export interface EngagementIntegration {
  id: string;
  name: string;
  dates: string[];
}

/** The integrations of the segment rows in first-seen order, each with its months sorted. */
export function integrationsOf(rows: readonly Pick<EngagementRow, 'integration_id' | 'integration_name' | 'date'>[]) {
  const byId = new Map<string, EngagementIntegration>();
  for (const row of rows) {
    const integration = byId.get(row.integration_id) ?? {
      id: row.integration_id,
      name: row.integration_name,
      dates: [],
    };
    if (!integration.dates.includes(row.date)) integration.dates.push(row.date);
    byId.set(row.integration_id, integration);
  }
  return [...byId.values()].map((integration) => ({ ...integration, dates: integration.dates.sort() }));
}

export type EngagementRoute =
  | { kind: 'unavailable' }
  | { kind: 'show'; integration: EngagementIntegration; date: string }
  | { kind: 'redirect'; integrationId: string; date: string };

/**
 * Spec 3 §2: without a known integration, the first integration and its latest date; with a date missing or not
 * among the integration's dates, that integration's latest date. No integration with months: unavailable.
 */
export function resolveEngagementRoute(
  integrations: readonly EngagementIntegration[],
  params: { integrationId?: string; date?: string },
): EngagementRoute {
  const named = integrations.find((integration) => integration.id === params.integrationId && integration.dates.length);
  const integration = named ?? integrations.find((candidate) => candidate.dates.length);
  if (!integration) return { kind: 'unavailable' };
  if (named && params.date && named.dates.includes(params.date)) {
    return { kind: 'show', integration: named, date: params.date };
  }
  return { kind: 'redirect', integrationId: integration.id, date: integration.dates[integration.dates.length - 1] };
}

/** The route of an engagement state (the screen's state lives in the route, so browser back works). */
export function engagementPath(workspaceId: number | string, integrationId: string, date: string): string {
  return `/workspaces/${workspaceId}/engagement/${encodeURIComponent(integrationId)}/${date}`;
}

/** 'Nov 2026' for '2026-11-01'. */
export function monthLabel(date: string): string {
  const [year, month] = date.split('-');
  return `${MONTH_LABELS[Number(month) - 1]} ${year}`;
}

/**
 * The month picker's options, newest first, with the last (oldest) option dropped as the spec says: the oldest
 * month has no month before it to compare with. Previous steps to the older option, next to the newer one.
 */
export function monthOptions(dates: readonly string[]): { value: string; label: string }[] {
  const newestFirst = [...dates].sort().reverse();
  return newestFirst
    .slice(0, Math.max(1, newestFirst.length - 1))
    .map((date) => ({ value: date, label: monthLabel(date) }));
}

/** The neighbouring months of the picker: previous (older) and next (newer), undefined at either end. */
export function monthSteps(options: readonly { value: string }[], date: string): { previous?: string; next?: string } {
  const index = options.findIndex((option) => option.value === date);
  if (index < 0) return {};
  return { previous: options[index + 1]?.value, next: options[index - 1]?.value };
}
