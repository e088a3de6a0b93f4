import { isWidgetType, type Widget, type WidgetType, widgetTypes } from '../../contracts/reports';
import { campaignPerformanceWidget } from './campaign_performance';
import { type WidgetDefinition, type WidgetSize } from './definition';
import { funnelWidget } from './funnel';
import { graphWidget } from './graph';
import { highLowWidget } from './high_low';
import { listWidget } from './list';
import { richTextWidget } from './rich_text';
import { subscriberGrowthWidget } from './subscriber_growth';
import { tableWidget } from './table';
import { targetWidget } from './target';

/**
 * Every widget kind of the contracts, by type: what the canvas, the palette, the configure drawer, the
 * layout and the cleanup read. A kind missing here does not compile; a new kind is a folder and a line.
 */
export const widgetRegistry: { readonly [T in WidgetType]: WidgetDefinition } = {
  campaign_performance: campaignPerformanceWidget,
  graph: graphWidget,
  funnel: funnelWidget,
  table: tableWidget,
  high_low: highLowWidget,
  subscriber_growth: subscriberGrowthWidget,
  target: targetWidget,
  list: listWidget,
  rich_text: richTextWidget,
};

/** The definition of a saved widget's type; undefined for kinds this version does not know. */
export const widgetDefinition = (type: string): WidgetDefinition | undefined =>
  isWidgetType(type) ? widgetRegistry[type] : undefined;

/** A type's label, or the raw type capitalised for kinds this version does not know. */
export function widgetLabel(type: string): string {
  return widgetDefinition(type)?.label ?? type.charAt(0).toUpperCase() + type.slice(1).replace(/_/g, ' ');
}

/** The kinds the editing drawer's palette offers with these feature flags, in the contracts' order. */
export function paletteTypes(flags: readonly string[]): WidgetType[] {
  return widgetTypes.filter((type) => widgetRegistry[type].inPalette(flags));
}

/** The size rules of a widget's kind at its display: the display's own, or the kind's first display's. */
export function widgetSizeOf(widget: Pick<Widget, 'type' | 'visualizationSettings'>): WidgetSize | undefined {
  const definition = widgetDefinition(widget.type);
  if (!definition?.displays) return definition?.size;
  const display = definition.displayOf ? definition.displayOf(widget) : widget.visualizationSettings?.display?.type;
  return (definition.displays.find((choice) => choice.value === display) ?? definition.displays[0]).size;
}
