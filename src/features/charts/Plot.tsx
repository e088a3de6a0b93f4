import { Spinner } from '@blueprintjs/core';
import { type ComponentType, lazy, Suspense, useEffect, useRef } from 'react';
import type { PlotParams } from 'react-plotly.js';
import { whenIdle } from '../../workers/idle';
import { PLOT_WARM_UP_MEASURE, recordSpan } from '../../workers/timeline';
import type * as PlotlyModule from './plotly';

type PlotlyApi = (typeof PlotlyModule)['Plotly'];
let plotModule: Promise<{ default: ComponentType<PlotParams>; plotly: PlotlyApi }> | undefined;

/** plotly's chunk (it is large), asked for once: by the first chart drawn or, earlier, by `usePlotPreload`. */
function loadPlot(): Promise<{ default: ComponentType<PlotParams>; plotly: PlotlyApi }> {
  if (!plotModule) {
    plotModule = Promise.all([import('./plotly'), import('react-plotly.js/factory')]).then(
      ([{ Plotly }, { default: createPlotlyComponent }]) => ({
        default: createPlotlyComponent(Plotly),
        plotly: Plotly,
      }),
    );
    // A failed download is asked for again by the next chart.
    plotModule.catch(() => {
      plotModule = undefined;
    });
  }
  return plotModule;
}

const LazyPlot = lazy(loadPlot);

/** A figure for plotly's warm-up: what a chart's `data` and `layout` props hold. */
export interface WarmUpFigure {
  data: unknown[];
  layout: unknown;
}

/** The page has drawn a chart, or is drawing one: plotly's first-chart costs are paid, no warm-up is needed. */
let chartDrawn = false;
let warmUpAsked = false;

/**
 * Draws `figures` once, off-screen and hidden from assistive technology, when the page is idle and no chart has been
 * drawn yet, then removes them. A page's first plotly chart took 70–120 ms against 15–40 for the next (Chromium
 * compiles plotly's functions on their first call; plotly adds its styles and measures its fonts once): the first
 * widget's chart no longer pays for that while the engine's answers wait for the page (bench/README.md).
 */
async function warmUpPlotly(plotly: PlotlyApi, figures: WarmUpFigure[]): Promise<void> {
  await whenIdle(WARM_UP_WAIT_MS);
  const started = performance.now();
  let drawn = 0;
  for (const figure of figures) {
    if (chartDrawn) break;
    const host = document.createElement('div');
    host.setAttribute('aria-hidden', 'true');
    // Laid out (plotly measures its text), never seen.
    host.style.cssText = 'position: fixed; left: -10000px; top: 0; width: 400px; visibility: hidden';
    document.body.append(host);
    try {
      await plotly.newPlot(host, figure.data, figure.layout, { displayModeBar: false });
      drawn += 1;
    } finally {
      plotly.purge(host);
      host.remove();
    }
  }
  if (drawn > 0) recordSpan(PLOT_WARM_UP_MEASURE, started, { figures: drawn });
}

/** The longest plotly's warm-up waits for an idle moment: a page busy for longer still gains by it before its numbers. */
const WARM_UP_WAIT_MS = 2_000;

/**
 * For a widget that draws a chart once its numbers arrive: plotly's chunk downloads and runs while the engine
 * starts and queries, instead of after the numbers, which left the chart's spinner after every other widget. With
 * `warmUp`, the first widget to ask gives the figures plotly warms up with while the page waits (`warmUpPlotly`).
 */
export function usePlotPreload(warmUp?: () => WarmUpFigure[]): void {
  const figures = useRef(warmUp);
  useEffect(() => {
    const plot = loadPlot();
    plot.catch(() => undefined);
    if (!figures.current || warmUpAsked || chartDrawn) return;
    warmUpAsked = true;
    const build = figures.current;
    plot.then(({ plotly }) => warmUpPlotly(plotly, build())).catch(() => undefined);
  }, []);
}

/** A plotly chart drawn with SVG traces only; shows a spinner while plotly loads. */
export function Plot(props: PlotParams) {
  useEffect(() => {
    chartDrawn = true;
  }, []);
  return (
    <Suspense fallback={<Spinner size={20} />}>
      <LazyPlot {...props} />
    </Suspense>
  );
}
