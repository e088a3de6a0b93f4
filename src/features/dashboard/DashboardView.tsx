import './dashboard.css';
import { Classes, NonIdealState } from '@blueprintjs/core';
import { type CSSProperties, type DragEvent as ReactDragEvent, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { type DashboardConfig, dashboardConfigSchema, type Widget } from '../../contracts/reports';
import { useAppDispatch, useAppSelector } from '../../store/hooks';
import { notificationShown } from '../notifications/notificationsSlice';
import {
  selectEditMode,
  selectionCleared,
  selectSelectedWidget,
  widgetSelected,
} from '../reports/state/dashboardSlice';
import {
  closeDrawerParams,
  DRAWER_PREFIX,
  drawerFromParams,
  type DrawerType,
  openDrawerParams,
} from '../shell/drawers';
import { TargetDrawer } from '../targets/TargetDrawer';
import { ConfigureWidgetDrawer } from '../widget-config/ConfigureWidgetDrawer';
import { KpiWidgetDrawer } from '../widgets/campaign_performance/KpiWidgetDrawer';
import { widgetDefinition, widgetLabel } from '../widgets/registry';
import { type DataScope, wholeDatasets } from '../widgets/types';
import {
  addWidgetAt,
  createWidget,
  type DropTarget,
  duplicateWidget,
  globalFilterRemoved,
  globalFiltersChanged,
  removeWidget,
  sortWidgets,
  widgetChanged,
} from './configEdits';
import { DashboardGrid } from './DashboardGrid';
import { EditingDrawer } from './EditingDrawer';
import { GlobalFilterBar } from './GlobalFilterBar';
import { defaultSizeOf, gridCellAt, type GridItem, hasGridLayout, layoutChanged, listItemBox } from './layout';
import { NotConfiguredNotice } from './NotConfiguredNotice';
import { useWidgetContext } from './useWidgetContext';
import { type DropSide, WidgetCard } from './WidgetCard';

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

/** What is being dragged over the canvas: a palette tile, or a widget of the list being reordered. */
type Dragged = { kind: 'new'; type: string } | { kind: 'move'; id: string };
/** Where it would land: on a line above or below a widget, at a grid spot, or at the end. */
type DropIndicator =
  | { kind: 'line'; widgetId: string; side: DropSide }
  | ({ kind: 'spot' } & Pick<GridItem, 'x' | 'y' | 'w' | 'h'>)
  | { kind: 'end' };

const sameIndicator = (a: DropIndicator | null, b: DropIndicator | null) => JSON.stringify(a) === JSON.stringify(b);
const GRID_SELECTOR = '.or-dashboard-grid';
/** Clicks here keep the selection: the canvas, the editing drawer, and drawers, dialogs and menus. */
const KEEPS_SELECTION = `.or-dashboard-canvas, .or-dashboard-editing-drawer, .${Classes.PORTAL}, .${Classes.OVERLAY}`;

function DashboardCanvas({ reportKey, config, canEdit, scope, onConfigChange }: DashboardViewProps) {
  const dispatch = useAppDispatch();
  const editMode = useAppSelector((state) => selectEditMode(state, reportKey));
  const editing = editMode && canEdit;
  const selectedId = useAppSelector((state) => selectSelectedWidget(state, reportKey));
  const context = useWidgetContext(config, scope, editing, canEdit);
  // Drawers let the user pick any field: they read the whole datasets, not the canvas's projection.
  const drawerContext = useMemo(() => ({ ...context, scope: wholeDatasets(context.scope) }), [context]);
  const [params, setParams] = useSearchParams();
  const drawer = drawerFromParams(params);
  const drawerWidgetId = params.get(`${DRAWER_PREFIX}widgetId`);
  const grid = hasGridLayout(config.flags);
  const canvasRef = useRef<HTMLDivElement>(null);
  const dragged = useRef<Dragged | null>(null);
  const [dragging, setDragging] = useState(false);
  const [indicator, setIndicator] = useState<DropIndicator | null>(null);

  useEffect(() => {
    if (!editing || selectedId === null) return;
    const clearOutside = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest(KEEPS_SELECTION)) return;
      dispatch(selectionCleared({ key: reportKey }));
    };
    document.addEventListener('mousedown', clearOutside);
    return () => document.removeEventListener('mousedown', clearOutside);
  }, [editing, selectedId, dispatch, reportKey]);

  const change = (next: DashboardConfig) => {
    if (next !== config) onConfigChange(next);
  };
  const select = (widgetId: string) => dispatch(widgetSelected({ key: reportKey, widgetId }));
  const openDrawer = (
    type: Extract<DrawerType, 'configure-dashboard-widget' | 'kpi-widget' | 'target'>,
    widgetId: string,
  ) => setParams(openDrawerParams(params, type, { widgetId }));
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
    if (selectedId === widgetId) dispatch(selectionCleared({ key: reportKey }));
    if (drawerWidgetId === widgetId) closeDrawer();
  };
  const changeWidget = (widget: Widget) => {
    if (canEdit) change(widgetChanged(config, widget));
  };

  const startDrag = (item: Dragged) => {
    dragged.current = item;
    setDragging(true);
  };
  const endDrag = () => {
    dragged.current = null;
    setDragging(false);
    setIndicator(null);
  };

  const indicatorAt = (event: ReactDragEvent): DropIndicator | null => {
    const item = dragged.current;
    const canvas = canvasRef.current;
    if (!item || !canvas || !(event.target instanceof Element)) return null;
    const card = event.target.closest<HTMLElement>('[data-widget-id]');
    if (card && canvas.contains(card)) {
      const widgetId = card.dataset.widgetId ?? '';
      if (item.kind === 'move' && widgetId === item.id) return null;
      const rect = card.getBoundingClientRect();
      return { kind: 'line', widgetId, side: event.clientY < rect.top + rect.height / 2 ? 'before' : 'after' };
    }
    const gridElement = canvas.querySelector(GRID_SELECTOR);
    if (item.kind === 'new' && gridElement) {
      const rect = gridElement.getBoundingClientRect();
      const size = defaultSizeOf(createWidget(item.type, 'preview'));
      return {
        kind: 'spot',
        ...gridCellAt(event.clientX - rect.left, event.clientY - rect.top, rect.width, size.w),
        ...size,
      };
    }
    return { kind: 'end' };
  };

  const dragOver = (event: ReactDragEvent) => {
    // Only the palette's tiles and the list's own widgets drop here (not files or text).
    if (!dragged.current) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = dragged.current.kind === 'new' ? 'copy' : 'move';
    const next = indicatorAt(event);
    setIndicator((current) => (sameIndicator(current, next) ? current : next));
  };
  const dragLeave = (event: ReactDragEvent) => {
    if (!(event.relatedTarget instanceof Node) || !canvasRef.current?.contains(event.relatedTarget)) setIndicator(null);
  };
  const drop = (event: ReactDragEvent) => {
    const item = dragged.current;
    if (!item) return;
    event.preventDefault();
    const target = indicatorAt(event);
    endDrag();
    if (!target) return;
    const reference =
      target.kind === 'line'
        ? target.side === 'before'
          ? { before: target.widgetId }
          : { after: target.widgetId }
        : undefined;
    if (item.kind === 'new') {
      add(item.type, reference ?? (target.kind === 'spot' ? { x: target.x, y: target.y } : undefined));
      return;
    }
    const last = config.widgets[config.widgets.length - 1];
    if (reference) change(sortWidgets(config, item.id, reference));
    else if (last) change(sortWidgets(config, item.id, { after: last.id }));
  };

  const selected = editing ? config.widgets.find((widget) => widget.id === selectedId) : undefined;
  const renderWidget = (widget: Widget) => (
    <WidgetCard
      widget={widget}
      context={context}
      editing={editing}
      selected={editing && widget.id === selectedId}
      dropLinesShown={dragging}
      activeDropSide={indicator?.kind === 'line' && indicator.widgetId === widget.id ? indicator.side : null}
      onReorderDragStart={
        editing && !grid
          ? (event) => {
              event.dataTransfer.effectAllowed = 'move';
              event.dataTransfer.setData('text/plain', widget.id);
              startDrag({ kind: 'move', id: widget.id });
            }
          : undefined
      }
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
          onClose={() => dispatch(selectionCleared({ key: reportKey }))}
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
          ref={canvasRef}
          className={`or-dashboard-canvas${indicator?.kind === 'end' ? ' or-dashboard-canvas-drop-end' : ''}`}
          onDragOver={dragOver}
          onDragLeave={dragLeave}
          onDrop={drop}
          onDragEnd={endDrag}
        >
          {config.widgets.length === 0 ? (
            <NonIdealState
              className="or-dashboard-empty"
              icon="add-to-artifact"
              title={editing ? EMPTY_CANVAS_EDITING : EMPTY_CANVAS}
            />
          ) : grid ? (
            <DashboardGrid
              widgets={config.widgets}
              editable={editing}
              renderWidget={renderWidget}
              dropSpot={indicator?.kind === 'spot' ? indicator : null}
              onLayoutStop={(layout) => {
                if (editing) change(layoutChanged(config, layout));
              }}
            />
          ) : (
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
          )}
        </div>
      </div>
      {canEdit && (
        <ConfigureWidgetDrawer
          isOpen={drawer.type === 'configure-dashboard-widget'}
          widget={config.widgets.find((widget) => widget.id === drawerWidgetId)}
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
          widget={config.widgets.find((widget) => widget.id === drawerWidgetId)}
          onWidgetChange={changeWidget}
          onClose={closeDrawer}
        />
      )}
      {drawer.type === 'kpi-widget' && (
        <KpiWidgetDrawer
          widget={config.widgets.find((widget) => widget.id === drawerWidgetId)}
          context={drawerContext}
          metric={params.get(`${DRAWER_PREFIX}metric`) ?? undefined}
          onClose={closeDrawer}
        />
      )}
    </div>
  );
}
