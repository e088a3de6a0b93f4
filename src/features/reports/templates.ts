import { DEFAULT_EXPLORER_DATASET, type ReportConfig, type ReportType } from '../../contracts/reports';

/**
 * The 'Create a new report' strip (spec 2 §2). Decisions, as the spec leaves them open:
 * - 'Dashboard' makes a dashboard in the workspace's current layout: the grid layout when the workspace has the
 *   grid_layout flag, else the list layout.
 * - 'Grid dashboard' (beta) always makes a grid_layout dashboard; it is offered only with the new_dashboard flag
 *   (spec 2 §6 Gating), so such a workspace can try the new layout before it becomes its default.
 * - 'Explorer view' makes an explorer view over the send-date campaign metrics.
 */
export interface ReportTemplate {
  id: 'dashboard' | 'grid-dashboard' | 'explorer-view';
  /** Shown on the template card and used, with the date, as the new report's title. */
  title: string;
  description: string;
  type: ReportType;
  beta: boolean;
}

export const GRID_LAYOUT_FLAG = 'grid_layout';
export const NEW_DASHBOARD_FLAG = 'new_dashboard';

const TEMPLATES: readonly ReportTemplate[] = [
  {
    id: 'dashboard',
    title: 'Dashboard',
    description: 'Widgets with your key metrics on one page',
    type: 'dashboard',
    beta: false,
  },
  {
    id: 'grid-dashboard',
    title: 'Grid dashboard',
    description: 'The new dashboard layout: place and size widgets freely',
    type: 'dashboard',
    beta: true,
  },
  {
    id: 'explorer-view',
    title: 'Explorer view',
    description: 'Explore campaign metrics in a pivot table',
    type: 'explorer_view',
    beta: false,
  },
];

/** The templates a workspace with these feature flags is offered. */
export const templatesFor = (flags: readonly string[]): ReportTemplate[] =>
  TEMPLATES.filter((template) => !template.beta || flags.includes(NEW_DASHBOARD_FLAG));

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** Spec 2 §3: the template title plus the date, e.g. 'Dashboard (22-11-2026)'. */
export const newReportTitle = (template: ReportTemplate, today: Date): string =>
  `${template.title} (${twoDigits(today.getDate())}-${twoDigits(today.getMonth() + 1)}-${today.getFullYear()})`;

/** The config a template starts a report with. */
export function templateConfig(template: ReportTemplate, flags: readonly string[], title: string): ReportConfig {
  if (template.type === 'explorer_view') return { title, dataset: DEFAULT_EXPLORER_DATASET };
  const grid = template.id === 'grid-dashboard' || flags.includes(GRID_LAYOUT_FLAG);
  return { title, widgets: [], flags: grid ? [GRID_LAYOUT_FLAG] : [] };
}
