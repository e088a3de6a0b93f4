// A partial plotly bundle: only the SVG traces the widgets draw (no WebGL, maps or 3D).
import bar from 'plotly.js/lib/bar';
import Plotly from 'plotly.js/lib/core';
import funnel from 'plotly.js/lib/funnel';
import scatter from 'plotly.js/lib/scatter';

Plotly.register([scatter, bar, funnel]);

export { Plotly };
