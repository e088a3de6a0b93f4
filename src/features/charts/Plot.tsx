import { Spinner } from '@blueprintjs/core';
import { lazy, Suspense } from 'react';
import type { PlotParams } from 'react-plotly.js';

// plotly is large: it loads in its own chunk the first time a chart is drawn.
const LazyPlot = lazy(async () => {
  const [{ Plotly }, { default: createPlotlyComponent }] = await Promise.all([
    import('./plotly'),
    import('react-plotly.js/factory'),
  ]);
  return { default: createPlotlyComponent(Plotly) };
});

/** A plotly chart drawn with SVG traces only; shows a spinner while plotly loads. */
export function Plot(props: PlotParams) {
  return (
    <Suspense fallback={<Spinner size={20} />}>
      <LazyPlot {...props} />
    </Suspense>
  );
}
