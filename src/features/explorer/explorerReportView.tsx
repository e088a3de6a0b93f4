import { lazy } from 'react';
import { type ExplorerConfig } from '../../contracts/reports';
import { type ReportTypeView } from '../reports/reportViews';
import { documentEdited, selectDocument } from '../reports/state/reportDocumentSlice';

/**
 * The grid's code (the explorer and Blueprint's table, about 150 KiB minified) in a chunk of its own: the report
 * pages' chunk is what a dashboard opens with, and a dashboard has no use for it.
 */
const loadBody = () => import(/* webpackChunkName: "explorer" */ './ExplorerReportBody');

/** An explorer view's report page: the grid; the toolbar has no explorer-only buttons. */
export const explorerReportView: ReportTypeView = {
  View: lazy(() => loadBody().then(({ ExplorerReportBody }) => ({ default: ExplorerReportBody }))),
  preload: loadBody,
  dateComparison: false,
};

export type ExplorerEdit = (current: ExplorerConfig) => ExplorerConfig;

/**
 * Applies `edit` to the view's config as the store holds it when the edit lands, not as the page last rendered it:
 * a debounced resize, or two edits dispatched before React renders again, each build on the one before.
 */
export function explorerEdited(key: string, edit: ExplorerEdit) {
  return (dispatch: (action: ReturnType<typeof documentEdited>) => void, getState: () => object) => {
    const current = selectDocument(getState(), key)?.config;
    if (current) dispatch(documentEdited({ key, config: edit(current as ExplorerConfig) }));
  };
}
