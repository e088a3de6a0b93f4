import { startAppListening } from '../../../store/listeners';
import { selectSelectedWidget, widgetsChanged } from './dashboardSlice';
import { isReportDocumentAction, selectDocument } from './reportDocumentSlice';

/**
 * Unselects a widget once its report's document no longer has it: an edit, an undo or redo, a discard, a
 * restored draft or a newer server copy can each take it away, and a closed report has none. The canvas
 * only reads the selection.
 */
export function dropStaleSelections(): () => void {
  return startAppListening({
    matcher: isReportDocumentAction,
    effect: (action, api) => {
      const { key } = action.payload;
      const state = api.getState();
      if (selectSelectedWidget(state, key) === null) return;
      const config = selectDocument(state, key)?.config;
      const widgets = config && 'widgets' in config ? config.widgets : [];
      api.dispatch(widgetsChanged({ key, widgetIds: widgets.map((widget) => widget.id) }));
    },
  });
}
