// plotly.js ships no types for its per-trace modules; the partial bundle only passes them to register().
declare module 'plotly.js/lib/core' {
  // The calls the app makes itself (charts/Plot.tsx); react-plotly.js types plotly's objects as unknown too.
  const Plotly: {
    register(modules: unknown[]): void;
    newPlot(root: HTMLElement, data: unknown[], layout?: unknown, config?: unknown): Promise<unknown>;
    purge(root: HTMLElement): void;
  } & Record<string, unknown>;
  export default Plotly;
}
declare module 'plotly.js/lib/*' {
  const traceModule: unknown;
  export default traceModule;
}
declare module '*.css';
// Blueprint's style sheet in two parts (scripts/blueprintCss.ts).
declare module '*.css?part=first';
declare module '*.css?part=later';
