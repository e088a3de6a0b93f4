import { type Report, type ReportSummary } from '../src/contracts/reports';

/**
 * A report in the list as `GET /api/workspaces/3/reports` answers it: a private dashboard 'Report' nobody opened
 * yet, readable by the user. Tests override only what they are about, e.g. `reportSummaryFixture({ id: 5 })`.
 */
export function reportSummaryFixture(overrides: Partial<ReportSummary> = {}): ReportSummary {
  return {
    id: 1,
    workspace_id: 3,
    type: 'dashboard',
    title: 'Report',
    dataset: null,
    version: 1,
    owner: null,
    created_at: '2026-11-01T00:00:00.000Z',
    created_by: null,
    modified_at: '2026-11-01T00:00:00.000Z',
    modified_by: null,
    last_opened_at: null,
    access_level: 'read',
    share_level: 'private',
    ...overrides,
  };
}

/** A whole report as `GET /api/workspaces/:id/reports/:id` answers it: the summary and an empty dashboard. */
export function reportFixture(overrides: Partial<Report> = {}): Report {
  const { config, ...summary } = overrides;
  const report = reportSummaryFixture(summary);
  return { ...report, config: config ?? { title: report.title, widgets: [] } };
}
