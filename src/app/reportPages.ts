// The reports area: the tab strip layout, the home, the report page and the targets screen, in one chunk.
export { ReportPage } from './reportViews';
export { ReportsHomePage } from '../features/reports/ReportsHomePage';
export { ReportsLayout } from '../features/reports/ReportsLayout';
export { TargetsPage } from '../features/targets/TargetsPage';
