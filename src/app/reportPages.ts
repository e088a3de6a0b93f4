// The reports area: the tab strip layout, the home, the report page and the targets screen, in one chunk.
import { persistReportDrafts } from '../features/reports/state/draftPersistence';
import { closeGoneReports } from '../features/reports/state/goneReports';
import { dropStaleSelections } from '../features/reports/state/staleSelection';

// The report documents' listeners start with the chunk holding their reducer (and redux-undo), once per page load:
// no document exists, and none of their actions is dispatched, before this chunk has loaded.
persistReportDrafts(window.localStorage);
dropStaleSelections();
closeGoneReports();

export { ReportPage } from './reportViews';
export { ReportsHomePage } from '../features/reports/ReportsHomePage';
export { ReportsLayout } from '../features/reports/ReportsLayout';
export { TargetsPage } from '../features/targets/TargetsPage';
