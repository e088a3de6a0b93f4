import './dashboard.css';
import { Classes, NonIdealState } from '@blueprintjs/core';
import { type CSSProperties, type ReactNode, useEffect, useMemo } from 'react';
import { type DashboardConfig, dashboardConfigSchema, type Widget } from '../../contracts/reports';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { selectEditMode, selectionCleared, selectSelectedWidget } from '../reports/state/dashboardSlice';
import { DRAWER_PREFIX, drawerFromParams } from '../shell/drawers';
import { TargetDrawer } from '../targets/TargetDrawer';
import { ConfigureWidgetDrawer } from '../widget-config/ConfigureWidgetDrawer';
import { KpiWidgetDrawer } from '../widgets/campaign_performance/KpiWidgetDrawer';
import { type DataScope, type WidgetContext, wholeDatasets } from '../widgets/types';
import { globalFilterRemoved, globalFiltersChanged } from './configEdits';
import { DashboardGrid } from './DashboardGrid';
import { EditingDrawer } from './EditingDrawer';
import { GlobalFilterBar } from './GlobalFilterBar';
import { type GridItem, hasGridLayout, layoutChanged, listItemBox } from './layout';
import { NotConfiguredNotice } from './NotConfiguredNotice';
import { useCanvasDrag } from './useCanvasDrag';
import { useDashboardActions } from './useDashboardActions';
import { useWidgetContext } from './useWidgetContext';
import { WidgetCard } from './WidgetCard';

export interface DashboardViewProps {
  /** The report's key (see reportKey), under which its edit mode and selection are kept. */
  reportKey: string;
  config: DashboardConfig;
  /** The viewer may change the report: write access and not the public page. */
  canEdit: boolean;
  scope: DataScope;
  /** A local (unsaved) change of the config: layout, widgets, global filters. */
  onConfigChange(config: DashboardConfig): void;
}

export const INVALID_DASHBOARD = 'Invalid dashboard configuration';
export const EMPTY_CANVAS = 'Drop widgets here';
export const EMPTY_CANVAS_EDITING = 'Drag & Drop your first widget here';

/** The dashboard canvas of a report page or a public report (spec 2 §2 Dashboard canvas). */
export function DashboardView(props: DashboardViewProps) {
  const parsed = useMemo(() => dashboardConfigSchema.safeParse(props.config), [props.config]);
  if (!parsed.success) return <NonIdealState icon="error" title={INVALID_DASHBOARD} />;
  return <DashboardCanvas {...props} config={parsed.data} />;
}

/** Clicks here keep the selection: the canvas, the editing drawer, and drawers, dialogs and menus. */
const KEEPS_SELECTION = `.or-dashboard-canvas, .or-dashboard-editing-drawer, .${Classes.PORTAL}, .${Classes.OVERLAY}`;

/** While a widget is selected in edit mode, a click anywhere else ends the selection. */
function useClearSelectionOutside(reportKey: string, active: boolean) {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!active) return;
    const clearOutside = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest(KEEPS_SELECTION)) return;
      dispatch(selectionCleared({ key: reportKey }));
    };
    document.addEventListener('mousedown', clearOutside);
    return () => document.removeEventListener('mousedown', clearOutside);
  }, [active, dispatch, reportKey]);
}

function DashboardCanvas({ reportKey, config, canEdit, scope, onConfigChange }: DashboardViewProps) {
  const editMode = useAppSelector((state) => selectEditMode(state, reportKey));
  const editing = editMode && canEdit;
  const selectedId = useAppSelector((state) => selectSelectedWidget(state, reportKey));
  const context = useWidgetContext(config, scope, editing, canEdit);
  const grid = hasGridLayout(config.flags);
  const actions = useDashboardActions({ reportKey, config, canEdit, selectedId, onConfigChange });
  const { change, select, openDrawer, add, duplicate, remove, changeWidget } = actions;
  const { dragging, indicator, startDrag, startReorder, endDrag, canvasProps } = useCanvasDrag({ config, add, change });
  useClearSelectionOutside(reportKey, editing && selectedId !== null);

  const selected = editing ? config.widgets.find((widget) => widget.id === selectedId) : undefined;
  const renderWidget = (widget: Widget) => (
    <WidgetCard
      widget={widget}
      context={context}
      editing={editing}
      selected={editing && widget.id === selectedId}
      dropLinesShown={dragging}
      activeDropSide={indicator?.kind === 'line' && indicator.widgetId === widget.id ? indicator.side : null}
      onReorderDragStart={editing && !grid ? startReorder(widget.id) : undefined}
      onSelect={() => select(widget.id)}
      onConfigure={() => openDrawer('configure-dashboard-widget', widget.id)}
      onDuplicate={() => duplicate(widget.id)}
      onRemove={() => remove(widget.id)}
      onOpenKpi={() => openDrawer('kpi-widget', widget.id)}
      onChange={changeWidget}
    />
  );

  return (
    <div className={`or-dashboard${editing ? ' or-dashboard-editing' : ''}`}>
      {editing && (
        <EditingDrawer
          flags={context.flags}
          selected={selected}
          onPaletteDragStart={(type) => startDrag({ kind: 'new', type })}
          onPaletteDragEnd={endDrag}
          onPaletteAdd={(type) => add(type)}
          onChange={changeWidget}
          onConfigure={(widgetId) => openDrawer('configure-dashboard-widget', widgetId)}
          onDuplicate={duplicate}
          onRemove={remove}
          onClose={actions.clearSelection}
        />
      )}
      <div className="or-dashboard-main">
        <NotConfiguredNotice scope={context.scope} />
        <GlobalFilterBar
          filters={config.filters ?? []}
          scope={context.scope}
          editable={editing}
          onApply={(filters) => change(globalFiltersChanged(config, filters))}
          onRemove={(index) => change(globalFilterRemoved(config, index))}
        />
        <div
          className={`or-dashboard-canvas${indicator?.kind === 'end' ? ' or-dashboard-canvas-drop-end' : ''}`}
          {...canvasProps}
        >
          <CanvasWidgets
            config={config}
            editing={editing}
            grid={grid}
            dropSpot={indicator?.kind === 'spot' ? indicator : null}
            renderWidget={renderWidget}
            onLayoutStop={(layout) => {
              if (editing) change(layoutChanged(config, layout));
            }}
          />
        </div>
      </div>
      <WidgetDrawers config={config} canEdit={canEdit} scope={scope} context={context} actions={actions} />
    </div>
  );
}

interface CanvasWidgetsProps {
  config: DashboardConfig;
  editing: boolean;
  grid: boolean;
  dropSpot: Pick<GridItem, 'x' | 'y' | 'w' | 'h'> | null;
  renderWidget(widget: Widget): ReactNode;
  onLayoutStop(layout: readonly GridItem[]): void;
}

/** The widgets on the grid or in the list, or the empty canvas's invitation to drop one. */
function CanvasWidgets({ config, editing, grid, dropSpot, renderWidget, onLayoutStop }: CanvasWidgetsProps) {
  if (config.widgets.length === 0) {
    return (
      <NonIdealState
        className="or-dashboard-empty"
        icon="add-to-artifact"
        title={editing ? EMPTY_CANVAS_EDITING : EMPTY_CANVAS}
      />
    );
  }
  if (grid) {
    return (
      <DashboardGrid
        widgets={config.widgets}
        editable={editing}
        renderWidget={renderWidget}
        dropSpot={dropSpot}
        onLayoutStop={onLayoutStop}
      />
    );
  }
  return (
    <div className="or-dashboard-list">
      {config.widgets.map((widget) => {
        const { span, height } = listItemBox(widget);
        return (
          <div
            key={widget.id}
            className={`or-dashboard-list-item or-dashboard-list-item-${widget.type}`}
            style={{ height, '--or-list-span': span } as CSSProperties}
          >
            {renderWidget(widget)}
          </div>
        );
      })}
    </div>
  );
}

interface WidgetDrawersProps {
  config: DashboardConfig;
  canEdit: boolean;
  scope: DataScope;
  context: WidgetContext;
  actions: ReturnType<typeof useDashboardActions>;
}

/** The drawer the URL names for a widget: configure and target for editors, the KPI zoom for everyone. */
function WidgetDrawers({ config, canEdit, scope, context, actions }: WidgetDrawersProps) {
  const { params, drawerWidgetId, changeWidget, closeDrawer } = actions;
  const drawer = drawerFromParams(params);
  const widget = config.widgets.find((candidate) => candidate.id === drawerWidgetId);
  // Drawers let the user pick any field: they read the whole datasets, not the canvas's projection.
  const drawerContext = useMemo(() => ({ ...context, scope: wholeDatasets(context.scope) }), [context]);
  return (
    <>
      {canEdit && (
        <ConfigureWidgetDrawer
          isOpen={drawer.type === 'configure-dashboard-widget'}
          widget={widget}
          context={drawerContext}
          onChange={changeWidget}
          onClose={closeDrawer}
        />
      )}
      {canEdit && (
        <TargetDrawer
          isOpen={drawer.type === 'target'}
          scope={scope}
          locale={context.locale}
          targetId={params.get(`${DRAWER_PREFIX}targetId`) ?? undefined}
          widget={widget}
          onWidgetChange={changeWidget}
          onClose={closeDrawer}
        />
      )}
      {drawer.type === 'kpi-widget' && (
        <KpiWidgetDrawer
          widget={widget}
          context={drawerContext}
          metric={params.get(`${DRAWER_PREFIX}metric`) ?? undefined}
          onClose={closeDrawer}
        />
      )}
    </>
  );
}
