import { type RefObject, useEffect, useState } from 'react';
import { type WidgetPlacement } from '../widgets/queryPriority';
import { type GridItem, gridItemBox } from './layout';

/** The attribute naming its widget on each item of the grid (DashboardGrid), which the placements observe. */
const GRID_WIDGET_ATTRIBUTE = 'data-grid-widget';

/**
 * Where each widget of the grid is for its queries (src/features/widgets/queryPriority.ts): below the fold when the
 * grid was first laid out (its top at or past `fold`, from the layout, so that its first queries know), then as an
 * IntersectionObserver reports the items entering and leaving the viewport. A placement is a holder the widget reads
 * when it asks a query: updating it draws nothing.
 */
export function useWidgetPlacements(
  containerRef: RefObject<HTMLDivElement>,
  layout: readonly GridItem[],
  width: number | undefined,
  fold: number,
): (item: GridItem) => WidgetPlacement {
  const [placements] = useState(() => new Map<string, WidgetPlacement>());
  useEffect(() => {
    const node = containerRef.current;
    if (!node || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        const placement = placements.get(entry.target.getAttribute(GRID_WIDGET_ATTRIBUTE) ?? '');
        if (placement) placement.current = entry.isIntersecting ? 'visible' : 'offscreen';
      }
    });
    for (const item of node.querySelectorAll(`[${GRID_WIDGET_ATTRIBUTE}]`)) observer.observe(item);
    return () => observer.disconnect();
  }, [containerRef, placements, layout, width]);
  return (item) => {
    let placement = placements.get(item.i);
    if (!placement) {
      const below = width !== undefined && gridItemBox(item, width).top >= fold;
      placement = { current: below ? 'offscreen' : 'visible' };
      placements.set(item.i, placement);
    }
    return placement;
  };
}
