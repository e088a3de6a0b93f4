import { type DragEvent as ReactDragEvent, useRef, useState } from 'react';
import { type DashboardConfig } from '../../contracts/reports';
import { createWidget, type DropTarget, sortWidgets } from './configEdits';
import { defaultSizeOf, gridCellAt, type GridItem } from './layout';
import { type DropSide } from './WidgetCard';

/** What is being dragged over the canvas: a palette tile, or a widget of the list being reordered. */
export type Dragged = { kind: 'new'; type: string } | { kind: 'move'; id: string };
/** Where it would land: on a line above or below a widget, at a grid spot, or at the end. */
export type DropIndicator =
  | { kind: 'line'; widgetId: string; side: DropSide }
  | ({ kind: 'spot' } & Pick<GridItem, 'x' | 'y' | 'w' | 'h'>)
  | { kind: 'end' };

const sameIndicator = (a: DropIndicator | null, b: DropIndicator | null) => JSON.stringify(a) === JSON.stringify(b);
const GRID_SELECTOR = '.or-dashboard-grid';

interface CanvasDragOptions {
  config: DashboardConfig;
  /** Adds a new widget of the palette tile's type where it was dropped. */
  add(type: string, target?: DropTarget): void;
  change(next: DashboardConfig): void;
}

/** Where the dragged item would land under the pointer, or null where it cannot. */
function indicatorAt(item: Dragged | null, canvas: HTMLElement | null, event: ReactDragEvent): DropIndicator | null {
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
}

/**
 * Dragging palette tiles onto the canvas and the list's widgets to a new place: the canvas element's ref and
 * handlers, and the drop indicator shown meanwhile.
 */
export function useCanvasDrag({ config, add, change }: CanvasDragOptions) {
  const canvasRef = useRef<HTMLDivElement>(null);
  const dragged = useRef<Dragged | null>(null);
  const [dragging, setDragging] = useState(false);
  const [indicator, setIndicator] = useState<DropIndicator | null>(null);

  const startDrag = (item: Dragged) => {
    dragged.current = item;
    setDragging(true);
  };
  const endDrag = () => {
    dragged.current = null;
    setDragging(false);
    setIndicator(null);
  };
  /** The drag start of a list widget's handle, moving it to another place in the list. */
  const startReorder = (widgetId: string) => (event: ReactDragEvent) => {
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', widgetId);
    startDrag({ kind: 'move', id: widgetId });
  };
  const onDragOver = (event: ReactDragEvent) => {
    // Only the palette's tiles and the list's own widgets drop here (not files or text).
    if (!dragged.current) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = dragged.current.kind === 'new' ? 'copy' : 'move';
    const next = indicatorAt(dragged.current, canvasRef.current, event);
    setIndicator((current) => (sameIndicator(current, next) ? current : next));
  };
  const onDragLeave = (event: ReactDragEvent) => {
    if (!(event.relatedTarget instanceof Node) || !canvasRef.current?.contains(event.relatedTarget)) setIndicator(null);
  };
  const onDrop = (event: ReactDragEvent) => {
    const item = dragged.current;
    if (!item) return;
    event.preventDefault();
    const target = indicatorAt(item, canvasRef.current, event);
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

  const canvasProps = { ref: canvasRef, onDragOver, onDragLeave, onDrop, onDragEnd: endDrag };
  return { dragging, indicator, startDrag, startReorder, endDrag, canvasProps };
}
