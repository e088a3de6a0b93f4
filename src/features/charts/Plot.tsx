import { Spinner } from '@blueprintjs/core';
import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import type { PlotParams } from 'react-plotly.js';

let plotModule: Promise<{ default: ComponentType<PlotParams> }> | undefined;

/** plotly's chunk (it is large), asked for once: by the first chart drawn or, earlier, by `usePlotPreload`. */
function loadPlot(): Promise<{ default: ComponentType<PlotParams> }> {
  if (!plotModule) {
    plotModule = Promise.all([import('./plotly'), import('react-plotly.js/factory')]).then(
      ([{ Plotly }, { default: createPlotlyComponent }]) => ({ default: createPlotlyComponent(Plotly) }),
    );
    // A failed download is asked for again by the next chart.
    plotModule.catch(() => {
      plotModule = undefined;
    });
  }
  return plotModule;
}

const LazyPlot = lazy(loadPlot);

/**
 * For a widget that draws a chart once its numbers arrive: plotly's chunk downloads and runs while the engine
 * starts and queries, instead of after the numbers, which left the chart's spinner after every other widget.
 */
export function usePlotPreload(): void {
  useEffect(() => {
    loadPlot().catch(() => undefined);
  }, []);
}

/** A plotly chart drawn with SVG traces only; shows a spinner while plotly loads. */
export function Plot(props: PlotParams) {
  return (
    <Suspense fallback={<Spinner size={20} />}>
      <LazyPlot {...props} />
    </Suspense>
  );
}
