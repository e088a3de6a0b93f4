import { type DashboardConfig, datasetQueriedByWidget } from '../contracts/reports';
import { datasetsApi } from '../features/datasets/datasetsApi';
import { type AppDispatch } from '../store/store';

/**
 * The schemas of the datasets a dashboard's widgets read (a target card reads its target's), asked for as soon as
 * its report has arrived. A widget's dataset load starts with its schema (loadDataset.ts), and the widgets mount only
 * once the dashboard's code has run: on the demo's cold open the schema's answer then waited for the page's busy
 * thread, and the file's request went out 0.3 s after the widgets mounted. A dataset's first load takes a schema
 * fetched this recently (SCHEMA_FRESH_S, loadDataset.ts).
 */
export function askForDatasetSchemas(dispatch: AppDispatch, workspaceId: number, config: DashboardConfig): void {
  const widgets = Array.isArray(config.widgets) ? config.widgets : [];
  for (const datasetId of new Set(widgets.map(datasetQueriedByWidget))) {
    if (datasetId) {
      dispatch(datasetsApi.endpoints.getDatasetSchema.initiate({ workspaceId, datasetId }, { subscribe: false }));
    }
  }
}
