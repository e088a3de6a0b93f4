import { type DashboardConfig, type Widget } from '../../contracts/reports';
import { MAX_HEIGHT_FALLBACK, MIN_SIZE_FALLBACK, type Size } from '../widgets/definition';
import { widgetSizeOf } from '../widgets/registry';

/** Dashboards saved with the new layout flag use the grid; older ones are a plain list of widgets. */
export function hasGridLayout(flags: DashboardConfig['flags']): boolean {
  if (!flags) return false;
  return Array.isArray(flags) ? flags.includes('grid_layout') : flags.grid_layout === true;
}

/** The dashboard grid (spec 2 §9 Layout). */
export const GRID_COLUMNS = 24;
export const ROW_HEIGHT = 8;
export const GRID_MARGIN: [number, number] = [16, 16];
export const EDITING_DRAWER_WIDTH = 240;
export const RESIZE_THROTTLE_MS = 300;

/** A widget whose layout is missing is shown at this size. */
export const ABSENT_LAYOUT_SIZE: Size = { w: 6, h: 4 };
/** A saved layout item without a usable size falls back to this one. */
export const SAVE_FALLBACK_SIZE: Size = { w: 24, h: 4 };

/** The size a new widget of this type and display gets (its kind's first display when none is set). */
export function defaultSizeOf(widget: Pick<Widget, 'type' | 'visualizationSettings'>): Size {
  return widgetSizeOf(widget)?.default ?? ABSENT_LAYOUT_SIZE;
}

/** One item of react-grid-layout's layout (the fields the dashboard reads and sets). */
export interface GridItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  minW?: number;
  minH?: number;
  maxW?: number;
  maxH?: number;
  static?: boolean;
}

/**
 * The grid item of a widget: its saved layout, else its kind's bounds, else the fallbacks of spec 2 §9. A widget without a position
 * goes to the bottom (react-grid-layout compacts an infinite y up to the first free row).
 */
export function gridItemOf(widget: Widget): GridItem {
  const layout = widget.layout;
  const bounds = widgetSizeOf(widget);
  const minW = layout?.minW ?? bounds?.min.w ?? MIN_SIZE_FALLBACK;
  const minH = layout?.minH ?? bounds?.min.h ?? MIN_SIZE_FALLBACK;
  const maxW = layout?.maxW ?? bounds?.max.w;
  return {
    i: widget.id,
    x: layout?.x ?? 0,
    y: layout?.y ?? Infinity,
    w: Math.max(layout?.w ?? ABSENT_LAYOUT_SIZE.w, minW),
    h: Math.max(layout?.h ?? ABSENT_LAYOUT_SIZE.h, minH),
    minW,
    minH,
    maxH: layout?.maxH ?? bounds?.max.h ?? MAX_HEIGHT_FALLBACK,
    ...(maxW === undefined ? {} : { maxW }),
    ...(layout?.static === undefined ? {} : { static: layout.static }),
  };
}

const usable = (value: number | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0;

/**
 * The config with the positions and sizes of a layout react-grid-layout reports (on drag stop or resize stop).
 * Items without a usable size are saved at 24×4. The same config is returned when nothing moved, so a click
 * on a widget does not count as an edit.
 */
export function layoutChanged(config: DashboardConfig, layout: readonly Partial<GridItem>[]): DashboardConfig {
  const byId = new Map(layout.map((item) => [item.i, item]));
  let changed = false;
  const widgets = config.widgets.map((widget) => {
    const item = byId.get(widget.id);
    if (!item) return widget;
    const next = {
      ...widget.layout,
      x: Number.isFinite(item.x) ? (item.x as number) : 0,
      y: Number.isFinite(item.y) ? (item.y as number) : 0,
      w: usable(item.w) ? item.w : SAVE_FALLBACK_SIZE.w,
      h: usable(item.h) ? item.h : SAVE_FALLBACK_SIZE.h,
    };
    const old = widget.layout;
    if (old && old.x === next.x && old.y === next.y && old.w === next.w && old.h === next.h) return widget;
    changed = true;
    return { ...widget, layout: next };
  });
  return changed ? { ...config, widgets } : config;
}

/** The width of one column of a grid `width` pixels wide (react-grid-layout's margins around every column). */
function columnWidth(width: number): number {
  return (width - GRID_MARGIN[0] * (GRID_COLUMNS + 1)) / GRID_COLUMNS;
}

/**
 * The grid cell under a point of the canvas (pixels from its top left) for an item `w` columns wide: where a
 * dropped widget lands. The item is kept inside the columns.
 */
export function gridCellAt(left: number, top: number, width: number, w: number): { x: number; y: number } {
  const [marginX, marginY] = GRID_MARGIN;
  const x = Math.floor((left - marginX) / (columnWidth(width) + marginX));
  const y = Math.floor((top - marginY) / (ROW_HEIGHT + marginY));
  return { x: Math.min(Math.max(x, 0), Math.max(GRID_COLUMNS - w, 0)), y: Math.max(y, 0) };
}

/** The pixel height of an item `h` rows high (rows of 8 px with 16 px margins between them). */
export const rowsHeight = (h: number): number => h * ROW_HEIGHT + (h - 1) * GRID_MARGIN[1];

/** The list layout (dashboards without the grid flag) is a CSS grid of 12 columns (spec 2 §9 Layout). */
export const LIST_COLUMNS = 12;
/** A table in the list layout is 427 px high unless the widget sets its own height (spec 2 §9 Charts). */
export const LIST_TABLE_HEIGHT = 427;

/** Where a widget sits in the list layout: half its default width on the 24 columns, and its height. */
export function listItemBox(widget: Pick<Widget, 'type' | 'visualizationSettings' | 'height'>) {
  const size = defaultSizeOf(widget);
  return {
    span: Math.min(LIST_COLUMNS, Math.max(1, Math.ceil(size.w / 2))),
    height: widget.height ?? (widget.type === 'table' ? LIST_TABLE_HEIGHT : rowsHeight(size.h)),
  };
}

/** Where react-grid-layout draws an item, in pixels from the grid's top left. */
export function gridItemBox(item: Pick<GridItem, 'x' | 'y' | 'w' | 'h'>, width: number) {
  const [marginX, marginY] = GRID_MARGIN;
  const column = columnWidth(width);
  return {
    left: marginX + item.x * (column + marginX),
    top: marginY + item.y * (ROW_HEIGHT + marginY),
    width: item.w * column + (item.w - 1) * marginX,
    height: rowsHeight(item.h),
  };
}

/** The config's flags with grid_layout on, in the form (list or map) the config already uses. */
function withGridFlag(flags: DashboardConfig['flags']): DashboardConfig['flags'] {
  if (!flags) return ['grid_layout'];
  if (Array.isArray(flags)) return flags.includes('grid_layout') ? flags : [...flags, 'grid_layout'];
  return { ...flags, grid_layout: true };
}

/**
 * A list-layout dashboard moved onto the grid ('Migrate', spec 2, flag new_dashboard): the widgets keep their
 * reading order, each at its kind's default size, placed left to right and wrapped into rows as the list showed
 * them. One config edit, so it is undone and saved like any other.
 */
export function migratedToGrid(config: DashboardConfig): DashboardConfig {
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  const widgets = config.widgets.map((widget) => {
    const size = defaultSizeOf(widget);
    const w = Math.min(size.w, GRID_COLUMNS);
    if (x + w > GRID_COLUMNS) {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    const layout = { x, y, w, h: size.h };
    x += w;
    rowHeight = Math.max(rowHeight, size.h);
    return { ...widget, layout };
  });
  return { ...config, flags: withGridFlag(config.flags), widgets };
}
