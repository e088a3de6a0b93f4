// plotly.js ships no types for its modules; the partial bundle (charts/plotly.ts) registers its parts itself.
type PlotlyModule = { moduleType?: string; name?: string } & Record<string, unknown>;
declare module 'plotly.js/src/plot_api' {
  // The calls the app makes itself (charts/Plot.tsx); react-plotly.js types plotly's objects as unknown too.
  const plotApi: {
    newPlot(root: HTMLElement, data: unknown[], layout?: unknown, config?: unknown): Promise<unknown>;
    react(root: HTMLElement, data: unknown[], layout?: unknown, config?: unknown): Promise<unknown>;
    purge(root: HTMLElement): void;
  } & Record<string, unknown>;
  export default plotApi;
}
declare module 'plotly.js/src/plots/plots' {
  const Plots: { resize(root: HTMLElement): Promise<unknown> } & Record<string, unknown>;
  export default Plots;
}
declare module 'plotly.js/src/registry' {
  export function register(modules: PlotlyModule | unknown[]): void;
}
declare module 'plotly.js/build/plotcss';
declare module 'plotly.js/src/*' {
  const plotlyModule: PlotlyModule;
  export default plotlyModule;
}
declare module 'plotly.js/lib/*' {
  const traceModule: PlotlyModule;
  export default traceModule;
}
declare module '*.css';
// Blueprint's style sheet in two parts (scripts/blueprintCss.ts).
declare module '*.css?part=first';
declare module '*.css?part=later';
