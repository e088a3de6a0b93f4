import { createContext, useContext } from 'react';
import { type Priority } from '../../workers/pool';

/**
 * Where a widget is for its queries: on screen, or outside it ('offscreen': a dashboard's widget below the fold),
 * whose queries run after those of the widgets in view (issue 20: above the fold first). A holder rather than a value:
 * the dashboard's grid updates it as the widget scrolls in and out of view without drawing the widget again, and the
 * widget's next query (a date change) leaves with what it holds then.
 */
export interface WidgetPlacement {
  current: Priority;
}

/** Widgets outside a dashboard's grid (the configure drawer's preview, the list layout) are on screen. */
export const WidgetPlacementContext = createContext<WidgetPlacement>({ current: 'visible' });

/** The priority a widget's queries ask with now (`EngineArgs.priority`). */
export function useWidgetPriority(): Priority {
  return useContext(WidgetPlacementContext).current;
}
