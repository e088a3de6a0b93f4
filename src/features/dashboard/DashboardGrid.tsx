import 'react-grid-layout/css/styles.css';
import { type ReactNode, useMemo } from 'react';
import { type EventCallback, ReactGridLayout } from 'react-grid-layout';
import { type Widget } from '../../contracts/reports';
import { WidgetPlacementContext } from '../widgets/queryPriority';
import {
  GRID_COLUMNS,
  GRID_MARGIN,
  type GridItem,
  gridItemBox,
  gridItemOf,
  RESIZE_THROTTLE_MS,
  ROW_HEIGHT,
} from './layout';
import { useGridWidth } from './useGridWidth';
import { useWidgetPlacements } from './useWidgetPlacements';
import { WIDGET_DRAG_CANCEL, WIDGET_DRAG_HANDLE } from './WidgetCard';

export interface DashboardGridProps {
  widgets: Widget[];
  /** Widgets can be moved and resized: edit mode with write access. */
  editable: boolean;
  renderWidget(widget: Widget): ReactNode;
  /** Where a palette tile dragged over the grid would land. */
  dropSpot: Pick<GridItem, 'x' | 'y' | 'w' | 'h'> | null;
  /** The grid after a drag or a resize ended (not during it). */
  onLayoutStop(layout: readonly GridItem[]): void;
}

const RESIZE_HANDLES = ['se', 'sw', 'ne', 'nw'] as const;

/** The 24-column dashboard grid (spec 2 §2 Dashboard canvas, §9 Layout). */
export function DashboardGrid({ widgets, editable, renderWidget, dropSpot, onLayoutStop }: DashboardGridProps) {
  const { width, fold, containerRef } = useGridWidth(RESIZE_THROTTLE_MS);
  const layout = useMemo(() => widgets.map(gridItemOf), [widgets]);
  // The widgets in view ask first; those below the fold after them (issue 20).
  const placementOf = useWidgetPlacements(containerRef, layout, width, fold);
  const stopped: EventCallback = (next) => onLayoutStop(next);
  return (
    <div ref={containerRef} className="or-dashboard-grid">
      {width !== undefined && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: GRID_COLUMNS, rowHeight: ROW_HEIGHT, margin: GRID_MARGIN }}
          dragConfig={{ enabled: editable, handle: `.${WIDGET_DRAG_HANDLE}`, cancel: `.${WIDGET_DRAG_CANCEL}` }}
          resizeConfig={{ enabled: editable, handles: [...RESIZE_HANDLES] }}
          onDragStop={stopped}
          onResizeStop={stopped}
        >
          {widgets.map((widget, index) => (
            <div key={widget.id} className="or-dashboard-grid-item" data-grid-widget={widget.id}>
              <WidgetPlacementContext.Provider value={placementOf(layout[index])}>
                {renderWidget(widget)}
              </WidgetPlacementContext.Provider>
            </div>
          ))}
        </ReactGridLayout>
      )}
      {width !== undefined && dropSpot && (
        <div className="or-dashboard-drop-spot" style={gridItemBox(dropSpot, width)} />
      )}
    </div>
  );
}
