import { type CSSProperties, type RefObject, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { PlotParams } from 'react-plotly.js';
import { type Locale } from '../../contracts/common';
import { formatField, formatValue } from '../../engine/format';
import { useAppSelector } from '../../store/hooks';
import { Plot } from '../charts/Plot';
import { selectIsDarkTheme } from '../prefs/prefsSlice';
import { type GraphModel, plotFigure, tooltipRows } from './graphModel';
import { WidgetError, widgetMessages } from './WidgetStates';

const PLOT_CONFIG = { displayModeBar: false, responsive: true };

interface HoverPoint {
  index: number;
  /** The pointer within the chart, and the chart's width. */
  x: number;
  y: number;
  width: number;
}

/** What react-plotly.js passes to hover handlers: the hovered points and the mouse event. */
interface PlotHoverEvent {
  points?: { pointIndex?: number; pointNumber?: number }[];
  event?: MouseEvent;
}

/** A chart's frame width: `measured` once the frame has been laid out; `width` undefined where it has none (hidden). */
export interface FrameWidth {
  measured: boolean;
  width?: number;
}

/**
 * The element's width, measured before the browser paints and followed as it changes (a grid item resized on the
 * canvas does not resize the window, so plotly's own resize handler would not notice). A chart waits for
 * `measured` before it draws: drawn first at plotly's automatic size, every chart of a dashboard was drawn a second
 * time once its width was known, which took the page's thread 130 ms at a cold open (bench/README.md).
 */
export function useWidth(ref: RefObject<HTMLElement | null>): FrameWidth {
  const [frame, setFrame] = useState<FrameWidth>({ measured: false });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    const measure = (px: number) => {
      const width = Math.round(px) || undefined;
      setFrame((current) => (current.measured && current.width === width ? current : { measured: true, width }));
    };
    // The frame has no padding: its client width is its content's width.
    measure(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(([entry]) => measure(entry.contentRect.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return frame;
}

/**
 * A graph widget's plotly chart, filling its frame's width; drawn once the frame is measured (`useWidth`). A figure
 * plotly fails to draw shows the spec's chart error instead of an empty frame (react-plotly.js reports the failure
 * only to `onError`); the next figure (new numbers, another width) is tried again.
 */
export function FramePlot({
  figure,
  ...events
}: { figure: Pick<PlotParams, 'data' | 'layout'> } & Pick<PlotParams, 'onHover' | 'onUnhover'>) {
  const [failed, setFailed] = useState<object | null>(null);
  if (failed === figure) return <WidgetError title={widgetMessages.chartError} />;
  return (
    <Plot
      data={figure.data}
      layout={figure.layout}
      config={PLOT_CONFIG}
      useResizeHandler
      style={{ width: '100%' }}
      onError={() => setFailed(figure)}
      {...events}
    />
  );
}

/** Beyond the middle the tooltip opens to the left of the pointer, so the widget's edge never cuts it off. */
function tooltipPosition({ x, y, width }: HoverPoint): CSSProperties {
  const top = Math.max(0, y - 12);
  return x > width / 2 ? { right: width - x + 12, top } : { left: x + 12, top };
}

interface GraphChartProps {
  model: GraphModel;
  locale: Locale;
  /** Accessible name of the chart. */
  title: string;
  /** @default GRAPH_HEIGHT (300) */
  height?: number;
}

/**
 * A graph model drawn by plotly, with its own tooltip listing the 10 largest values of the hovered
 * bucket (plotly's own would list every series).
 */
export function GraphChart({ model, locale, title, height }: GraphChartProps) {
  const dark = useAppSelector(selectIsDarkTheme);
  const frame = useRef<HTMLDivElement>(null);
  const [hover, setHover] = useState<HoverPoint | null>(null);
  const { measured, width } = useWidth(frame);
  const figure = useMemo(
    () => plotFigure(model, { locale, dark, height, width }),
    [model, locale, dark, height, width],
  );
  const rows = hover ? tooltipRows(model, hover.index) : [];

  const onHover = (event: PlotHoverEvent) => {
    const point = event.points?.[0];
    const index = point?.pointIndex ?? point?.pointNumber;
    const box = frame.current?.getBoundingClientRect();
    if (index === undefined || !box || !event.event) return;
    setHover({ index, x: event.event.clientX - box.left, y: event.event.clientY - box.top, width: box.width });
  };

  return (
    <div className="or-graph-chart" ref={frame} role="figure" aria-label={title}>
      {measured && <FramePlot figure={figure} onHover={onHover} onUnhover={() => setHover(null)} />}
      {hover && rows.length > 0 && (
        <div className="or-graph-tooltip" role="tooltip" style={tooltipPosition(hover)}>
          <div className="or-graph-tooltip-title">{formatValue(model.axis[hover.index], 'date', locale)}</div>
          {rows.map((row) => (
            <div key={`${row.name}:${row.bucket}`} className="or-graph-tooltip-row">
              <span
                className={row.dashed ? 'or-graph-swatch or-graph-swatch-dashed' : 'or-graph-swatch'}
                style={{ borderColor: row.color }}
              />
              <span className="or-graph-tooltip-name">
                {row.name}
                {row.dashed && ` · ${formatValue(row.bucket, 'date', locale)}`}
              </span>
              <span className="or-graph-tooltip-value">{formatField(row.value, row.metric, locale)}</span>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
