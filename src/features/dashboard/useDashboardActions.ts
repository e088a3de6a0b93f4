import { useSearchParams } from 'react-router-dom';
import { type DashboardConfig, type Widget } from '../../contracts/reports';
import { useAppDispatch } from '../../store/hooks';
import { notificationShown } from '../notifications/notificationsSlice';
import { selectionCleared, widgetSelected } from '../reports/state/dashboardSlice';
import { closeDrawerParams, DRAWER_PREFIX, type DrawerType, openDrawerParams } from '../shell/drawers';
import { widgetDefinition, widgetLabel } from '../widgets/registry';
import { addWidgetAt, type DropTarget, duplicateWidget, removeWidget, widgetChanged } from './configEdits';

/** The drawers a widget opens, named in the URL with the widget's id. */
export type WidgetDrawerType = Extract<DrawerType, 'configure-dashboard-widget' | 'kpi-widget' | 'target'>;

interface DashboardActionsOptions {
  reportKey: string;
  config: DashboardConfig;
  canEdit: boolean;
  selectedId: string | null;
  onConfigChange(config: DashboardConfig): void;
}

/**
 * What the canvas, the editing drawer and the widget cards do to the dashboard: edits, selection and drawers; with
 * the URL's parameters, which name the open drawer and its widget.
 */
export function useDashboardActions({
  reportKey,
  config,
  canEdit,
  selectedId,
  onConfigChange,
}: DashboardActionsOptions) {
  const dispatch = useAppDispatch();
  const [params, setParams] = useSearchParams();
  const drawerWidgetId = params.get(`${DRAWER_PREFIX}widgetId`);

  const change = (next: DashboardConfig) => {
    if (next !== config) onConfigChange(next);
  };
  const select = (widgetId: string) => dispatch(widgetSelected({ key: reportKey, widgetId }));
  const clearSelection = () => dispatch(selectionCleared({ key: reportKey }));
  const openDrawer = (type: WidgetDrawerType, widgetId: string) =>
    setParams(openDrawerParams(params, type, { widgetId }));
  const closeDrawer = () => setParams(closeDrawerParams(params));

  const add = (type: string, target?: DropTarget) => {
    const { config: next, widget } = addWidgetAt(config, type, target);
    onConfigChange(next);
    select(widget.id);
    // The kind names its drawer: a Target tile opens the Target drawer, the others the configure drawer.
    openDrawer(widgetDefinition(type)?.drawerOnAdd ?? 'configure-dashboard-widget', widget.id);
  };
  const duplicate = (widgetId: string) => {
    try {
      const { config: next, widget } = duplicateWidget(config, widgetId, (original) =>
        original.title ? original.title : widgetLabel(original.type),
      );
      onConfigChange(next);
      select(widget.id);
    } catch (error) {
      dispatch(notificationShown((error as Error).message, 'danger'));
    }
  };
  const remove = (widgetId: string) => {
    change(removeWidget(config, widgetId));
    // Removing the selected widget ends the selection; the other ways a widget goes (undo, a discarded or
    // newer document) are seen by the report documents' listener (dropStaleSelections).
    if (selectedId === widgetId) clearSelection();
    if (drawerWidgetId === widgetId) closeDrawer();
  };
  const changeWidget = (widget: Widget) => {
    if (canEdit) change(widgetChanged(config, widget));
  };

  const actions = { change, select, clearSelection, openDrawer, closeDrawer, add, duplicate, remove, changeWidget };
  return { params, drawerWidgetId, ...actions };
}
