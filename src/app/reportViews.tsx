import { dashboardReportView } from '../features/dashboard/dashboardReportView';
import { explorerReportView } from '../features/explorer/explorerReportView';
import { ReportPage as ReportPageOfType } from '../features/reports/ReportPage';
import { type ReportViews, ReportViewsProvider } from '../features/reports/reportViews';

/** Each report type's view: composed here so that the reports feature never imports the features it shows. */
export const reportViews: ReportViews = { dashboard: dashboardReportView, explorer_view: explorerReportView };

/** The report page with every report type's view. */
export function ReportPage() {
  return (
    <ReportViewsProvider value={reportViews}>
      <ReportPageOfType />
    </ReportViewsProvider>
  );
}
