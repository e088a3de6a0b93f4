/**
 * DuckDB-WASM 1.32's modules are Emscripten main modules built to link extensions at run time, and their start code
 * walks all 75,011 exports several times for side modules the engine never links (extensions are neither installed
 * nor loaded). This loader changes two of those walks (below); each must be found as many times as expected, or the
 * build fails (a new DuckDB-WASM release: check these against its start code). On cold opens of the demo dashboard a
 * worker's instantiation took 0.8–1.3 s before and 0.45–0.7 s after the first (bench/README.md).
 */
interface GlueChange {
  what: string;
  /** The start code as DuckDB-WASM 1.32.0's bundles ship it (minified), and what replaces it. */
  from: string;
  to: string;
}

export const GLUE_CHANGES: readonly GlueChange[] = [
  {
    // Every export got a global-offset-table entry (a `WebAssembly.Global`) and every exported function a slot in
    // the function table, in case a side module imports it. The module itself imports 268 of them (its `GOT.func`
    // and `GOT.mem` imports, whose entries exist before this runs): those are filled in, and no others are made; a
    // side module's imports would still make theirs on demand (Emscripten's `GOTHandler`).
    what: "updateGOT's table entry per export",
    from: 'GOT[t]||(GOT[t]=new WebAssembly.Global({value:"i32",mutable:!0})),(r||GOT[t].value==0)&&',
    to: 'GOT[t]&&(r||GOT[t].value==0)&&',
  },
  {
    // The same walks over the exports without an array per export (`Object.entries`) and a closure per export:
    // about 0.12 s of a 1 s instantiation in Node.
    what: 'registerDynCallSymbols',
    from: 'registerDynCallSymbols=e=>{for(var[r,t]of Object.entries(e))r.startsWith("dynCall_")&&!Module.hasOwnProperty(r)&&(Module[r]=t)}',
    to: 'registerDynCallSymbols=e=>{for(var r in e)r.startsWith("dynCall_")&&!Module.hasOwnProperty(r)&&(Module[r]=e[r])}',
  },
  {
    what: 'mergeLibSymbols',
    from: 'for(var[t,n]of Object.entries(e))(o=>{isSymbolDefined(o)||(wasmImports[o]=n)})(t)}',
    to: 'for(var t in e)isSymbolDefined(t)||(wasmImports[t]=e[t])}',
  },
];

/** Each bundle (the browser's and Node's) carries the start code twice. */
export const GLUE_COPIES = 2;

/** The bundle's source with the start code's changes applied. */
export function withLeanStartCode(source: string): string {
  return GLUE_CHANGES.reduce((changed, { what, from, to }) => {
    const parts = changed.split(from);
    if (parts.length - 1 !== GLUE_COPIES) {
      throw new Error(
        `DuckDB-WASM's start code has ${parts.length - 1} copies of ${what} as expected, not ${GLUE_COPIES}: ` +
          'check scripts/duckdbGlue.ts against the new release',
      );
    }
    return parts.join(to);
  }, source);
}

/** The webpack loader (webpack.config.ts) for `duckdb-browser-blocking.mjs`. */
// eslint-disable-next-line import-x/no-default-export -- webpack runs a loader module's default export
export default function duckdbGlueLoader(source: string): string {
  return withLeanStartCode(source);
}
