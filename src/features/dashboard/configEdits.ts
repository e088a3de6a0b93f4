import { newUuid } from '../../contracts/ids';
import { type DashboardConfig, type ReportFilter, type Widget } from '../../contracts/reports';
import { widgetDefinition } from '../widgets/registry';
import { defaultSizeOf } from './layout';

export const WIDGET_COPY_SUFFIX = ' (copy)';
export const WIDGET_NOT_FOUND = 'Widget not found.';

/** Where a new or moved widget goes: next to a reference widget, or at a grid position. */
export type DropTarget = { before: string } | { after: string } | { x: number; y: number };

export const newWidgetId = newUuid;

/** A new widget of `type` with its defaults and default size, placed at the top left. */
export function createWidget(type: string, id: string = newWidgetId()): Widget {
  // A copy, so no saved widget shares an object with the registry's defaults.
  const defaults = JSON.parse(JSON.stringify(widgetDefinition(type)?.defaults ?? {})) as Omit<Widget, 'id' | 'type'>;
  const widget: Widget = { id, type, ...defaults };
  return { ...widget, layout: { x: 0, y: 0, ...defaultSizeOf(widget) } };
}

function indexOf(config: DashboardConfig, id: string): number {
  return config.widgets.findIndex((widget) => widget.id === id);
}

/** The widgets order follows the grid (top to bottom, then left to right), so lists and grids agree. */
function insertionIndex(widgets: readonly Widget[], x: number, y: number): number {
  const after = widgets.findIndex(
    (widget) => (widget.layout?.y ?? Infinity) > y || (widget.layout?.y === y && (widget.layout?.x ?? 0) > x),
  );
  return after === -1 ? widgets.length : after;
}

/** Places `widget` at `target` in `widgets` (which does not hold it), moving its layout along. */
function place(widgets: readonly Widget[], widget: Widget, target: DropTarget | undefined): Widget[] {
  const size = { w: widget.layout?.w ?? defaultSizeOf(widget).w, h: widget.layout?.h ?? defaultSizeOf(widget).h };
  let index = widgets.length;
  let position = { x: 0, y: Infinity };
  if (target && 'x' in target) {
    index = insertionIndex(widgets, target.x, target.y);
    position = { x: target.x, y: target.y };
  } else if (target) {
    const refId = 'before' in target ? target.before : target.after;
    const refIndex = widgets.findIndex((candidate) => candidate.id === refId);
    if (refIndex !== -1) {
      const ref = widgets[refIndex].layout;
      const before = 'before' in target;
      index = before ? refIndex : refIndex + 1;
      // The grid pushes whatever overlaps further down, so the reference's own row is the spot.
      position = { x: ref?.x ?? 0, y: before ? (ref?.y ?? 0) : (ref?.y ?? 0) + (ref?.h ?? 0) };
    }
  }
  if (!Number.isFinite(position.y)) {
    position.y = widgets.reduce(
      (bottom, other) => Math.max(bottom, (other.layout?.y ?? 0) + (other.layout?.h ?? 0)),
      0,
    );
  }
  const placed = { ...widget, layout: { ...widget.layout, ...position, ...size } };
  return [...widgets.slice(0, index), placed, ...widgets.slice(index)];
}

/** Adds a new widget of `type` at the drop target (the palette's 'add' action of spec 2 §4). */
export function addWidgetAt(
  config: DashboardConfig,
  type: string,
  target?: DropTarget,
  id: string = newWidgetId(),
): { config: DashboardConfig; widget: Widget } {
  const widgets = place(config.widgets, createWidget(type, id), target);
  return { config: { ...config, widgets }, widget: widgets.find((widget) => widget.id === id) as Widget };
}

/** Moves a widget before or after another (the 'sort' action); the config is unchanged when either is unknown. */
export function sortWidgets(config: DashboardConfig, id: string, target: { before: string } | { after: string }) {
  const refId = 'before' in target ? target.before : target.after;
  const index = indexOf(config, id);
  if (index === -1 || refId === id || indexOf(config, refId) === -1) return config;
  const rest = config.widgets.filter((widget) => widget.id !== id);
  return { ...config, widgets: place(rest, config.widgets[index], target) };
}

/** A copy of a widget with a new id and ' (copy)' after its title, placed right below it. */
export function duplicateWidget(
  config: DashboardConfig,
  id: string,
  title: (widget: Widget) => string,
  newId: string = newWidgetId(),
): { config: DashboardConfig; widget: Widget } {
  const original = config.widgets.find((widget) => widget.id === id);
  if (!original) throw new Error(WIDGET_NOT_FOUND);
  // Widgets are plain JSON, so a JSON round trip is a full deep copy.
  const copy: Widget = {
    ...(JSON.parse(JSON.stringify(original)) as Widget),
    id: newId,
    title: `${title(original)}${WIDGET_COPY_SUFFIX}`,
  };
  const widgets = place(config.widgets, copy, { after: id });
  return { config: { ...config, widgets }, widget: widgets.find((widget) => widget.id === newId) as Widget };
}

export function removeWidget(config: DashboardConfig, id: string): DashboardConfig {
  if (indexOf(config, id) === -1) return config;
  return { ...config, widgets: config.widgets.filter((widget) => widget.id !== id) };
}

/** Replaces the widget with the same id; an unknown widget (removed meanwhile) is not brought back. */
export function widgetChanged(config: DashboardConfig, widget: Widget): DashboardConfig {
  const index = indexOf(config, widget.id);
  if (index === -1) return config;
  return { ...config, widgets: config.widgets.map((current, at) => (at === index ? widget : current)) };
}

/** The dashboard with the global filters the filter bar applied. */
export function globalFiltersChanged(config: DashboardConfig, filters: ReportFilter[]): DashboardConfig {
  return { ...config, filters };
}

export function globalFilterRemoved(config: DashboardConfig, index: number): DashboardConfig {
  const filters = config.filters ?? [];
  if (index < 0 || index >= filters.length) return config;
  return { ...config, filters: filters.filter((_filter, at) => at !== index) };
}
