// The reports area: the tab strip layout, the home and the report page, loaded together in one chunk.
export { ReportPage } from '../features/reports/ReportPage';
export { ReportsHomePage } from '../features/reports/ReportsHomePage';
export { ReportsLayout } from '../features/reports/ReportsLayout';
