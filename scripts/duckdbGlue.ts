/**
 * DuckDB-WASM 1.32's modules are Emscripten main modules built to link extensions at run time: their start code
 * (`updateGOT`) gives every one of the 75,011 exports a global-offset-table entry (a `WebAssembly.Global`) and every
 * exported function a slot in the function table, in case a side module imports it. Only 268 of them are imported
 * through the table by the module itself (its `GOT.func` and `GOT.mem` imports, whose entries exist before this runs),
 * and the engine never links a side module (extensions are neither installed nor loaded). This loader makes the
 * start code fill in the entries that exist and create no others, as a side module's own imports would create them
 * on demand (Emscripten's `GOTHandler`). A worker's instantiation took 0.8–1.3 s before and 0.45–0.7 s after on
 * cold opens of the demo dashboard (bench/README.md). The build fails if the start code no longer reads as expected
 * (a new DuckDB-WASM release).
 */

/** `updateGOT`'s loop body as DuckDB-WASM 1.32.0's bundles ship it (minified); each bundle carries it twice. */
const EVERY_EXPORT = 'GOT[t]||(GOT[t]=new WebAssembly.Global({value:"i32",mutable:!0})),(r||GOT[t].value==0)&&';
const EXISTING_ENTRIES = 'GOT[t]&&(r||GOT[t].value==0)&&';

export const GLUE_COPIES = 2;

/** The bundle's source with the start code creating no table entry nobody imports. */
export function withoutUnusedGotEntries(source: string): string {
  const parts = source.split(EVERY_EXPORT);
  if (parts.length - 1 !== GLUE_COPIES) {
    throw new Error(
      `DuckDB-WASM's start code has ${parts.length - 1} copies of updateGOT's loop as expected, not ${GLUE_COPIES}: ` +
        'check scripts/duckdbGlue.ts against the new release',
    );
  }
  return parts.join(EXISTING_ENTRIES);
}

/** The webpack loader (webpack.config.ts) for `duckdb-browser-blocking.mjs`. */
// eslint-disable-next-line import-x/no-default-export -- webpack runs a loader module's default export
export default function duckdbGlueLoader(source: string): string {
  return withoutUnusedGotEntries(source);
}
