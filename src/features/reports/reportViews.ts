import { type ComponentType, createContext, useContext } from 'react';
import { type Report, type ReportConfig, type ReportType } from '../../contracts/reports';

/** What a report type's view and toolbar actions receive from the report page. */
export interface ReportViewProps {
  /** The server copy, for its type, workspace and access level. */
  report: Report;
  reportKey: string;
  /** The local document's config. */
  config: ReportConfig;
}

/**
 * What one report type adds to the report page. The dashboard and explorer features provide theirs, and the app
 * layer hands them to the page, so this feature never imports the features that render a report's body.
 */
export interface ReportTypeView {
  /** The page's body: the dashboard canvas, the explorer grid. It may be lazy (the page shows a spinner meanwhile). */
  View: ComponentType<ReportViewProps>;
  /** Asks for a lazy `View`'s code as the page opens, while the report itself is being fetched. */
  preload?(): Promise<unknown>;
  /** Toolbar buttons of this type only, shown after the save buttons. */
  ToolbarActions?: ComponentType<ReportViewProps>;
  /** Whether the date-range picker offers a comparison period. */
  dateComparison: boolean;
}

export type ReportViews = Record<ReportType, ReportTypeView>;

const ReportViewsContext = createContext<ReportViews | null>(null);

/** Provided by the app layer around the report page (src/app/reportViews.tsx). */
export const ReportViewsProvider = ReportViewsContext.Provider;

/** The view of a report type; the report page cannot render without the app's views. */
export function useReportView(type: ReportType): ReportTypeView {
  const views = useContext(ReportViewsContext);
  if (!views) throw new Error('The report page needs a ReportViewsProvider');
  return views[type];
}
