/**
 * A partial plotly bundle: the two SVG traces the charts draw (lines and bars; no WebGL, maps or 3D), on plotly's
 * core without the components no chart uses. plotly's own core (`plotly.js/lib/core`) registers sixteen; the charts
 * (graphModel.ts, graph/barModel.ts, the home page's) set no annotations, images, menus, sliders, range sliders or
 * selectors, grids, error bars or colour bars, and plotly asks its registry for a missing component's methods, getting
 * a no-op. The mode bar stays though hidden: plotly reads its layout defaults while drawing. Without the rest plotly's
 * chunk is about 40 KiB smaller gzipped (bench/README.md).
 */
import 'plotly.js/build/plotcss';
import bar from 'plotly.js/lib/bar';
import colorscale from 'plotly.js/src/components/colorscale';
import fx from 'plotly.js/src/components/fx';
import legend from 'plotly.js/src/components/legend';
import modebar from 'plotly.js/src/components/modebar';
import shapes from 'plotly.js/src/components/shapes';
import localeEn from 'plotly.js/src/locale-en';
import localeEnUs from 'plotly.js/src/locale-en-us';
import plotApi from 'plotly.js/src/plot_api';
import Plots from 'plotly.js/src/plots/plots';
import { register } from 'plotly.js/src/registry';
import scatter from 'plotly.js/src/traces/scatter';

// As plotly's core does: its API methods are registered too, as plotly calls some of them through the registry.
for (const [name, fn] of Object.entries(plotApi)) register({ moduleType: 'apiMethod', name, fn });
// In plotly's own order: the legend's defaults read the shapes', the hover's the legend's.
register([scatter, shapes, colorscale, legend, fx, modebar, localeEn, localeEnUs, bar]);

/** The calls the app and react-plotly.js make (react-plotly.js resizes through `Plots.resize`). */
export const Plotly = {
  newPlot: plotApi.newPlot,
  react: plotApi.react,
  purge: plotApi.purge,
  Plots: { resize: Plots.resize },
};
