import { type Locale } from '../../contracts/common';
import { type ReportFilter, type Widget } from '../../contracts/reports';
import { type DateRanges, type WeekStart } from '../../engine/dates';
import { type DashboardProjection } from '../datasets/projection';

/**
 * Where a widget's datasets come from: the workspace's own (signed in) or a publicly shared report's
 * (the public page, no sign-in).
 */
export interface DataScope {
  workspaceId: number;
  publicReportId?: number;
  /**
   * A dashboard in view mode: its widgets load only the columns it reads (issue 20); pending while the targets its
   * target cards show are still unknown. Absent everywhere the user may pick any field: the whole dataset.
   */
  projection?: DashboardProjection | typeof PROJECTION_PENDING;
}

/** A projection that waits for the dashboard's targets. */
export const PROJECTION_PENDING = 'pending';

/** The scope without a projection: where the user may pick any field. */
export function wholeDatasets({ projection: _projection, ...scope }: DataScope): DataScope {
  return scope;
}

/** Everything a widget needs besides its own settings: the dashboard's dates, global filters and viewer. */
export interface WidgetContext {
  scope: DataScope;
  /** The committed main range and, when comparison is on, the compare range (both resolved to days). */
  ranges: DateRanges;
  /** The dashboard's global filters, applied to every widget on top of its own. */
  filters: ReportFilter[];
  /** Numbers and dates are shown in the workspace's locale. */
  locale: Locale;
  weekStart: WeekStart;
  /** The workspace's feature flags (list_members, grid_layout, new_dashboard …). */
  flags: string[];
  editMode: boolean;
  /**
   * The dashboard lays its widgets out as a list (no grid_layout flag): the legacy dashboards, whose few own
   * behaviours (spec 2: clicking the open subscriber-growth tab collapses it) apply only there.
   */
  listLayout?: boolean;
  /** The viewer may change the report (read_write or full_access, and not the public page). */
  canEdit: boolean;
}

export interface WidgetProps {
  widget: Widget;
  context: WidgetContext;
  /** A change the widget makes to its own settings (rich text content, list ordering), as a new widget. */
  onChange?: (widget: Widget) => void;
}
