/**
 * DuckDB-WASM 1.32's modules are Emscripten main modules built to link extensions at run time, and their start code
 * walks all 75,011 exports several times for side modules the engine never links (extensions are neither installed
 * nor loaded). This loader shortens or removes four of those walks with three changes (below); each must be found as
 * many times as expected, or the build fails (a new DuckDB-WASM release: check these against its start code).
 * Figures: bench/README.md.
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
    // the function table, in case a side module imports it. The entries a module imports exist before this runs
    // (its `GOT.func` and `GOT.mem` imports: 268, none of them exported by the module; the JS library's functions
    // and addresses fill them in later). So the walk now goes over the existing entries, looking each up among the
    // exports (an `orig$` export first, as Emscripten's walk lets it win), instead of over all 75,011 exports, and
    // makes no others. A side module's imports would still make theirs on demand (Emscripten's `GOTHandler`).
    what: "updateGOT's walk over every export",
    from:
      'updateGOT=(e,r)=>{for(var t in e)if(!isInternalSym(t)){var n=e[t];t.startsWith("orig$")&&(t=t.split("$")[1],r=!0),' +
      'GOT[t]||(GOT[t]=new WebAssembly.Global({value:"i32",mutable:!0})),(r||GOT[t].value==0)&&',
    to:
      'updateGOT=(e,r)=>{var a;for(var t in GOT)if(a="orig$"+t in e?"orig$"+t:t in e?t:"",a&&!isInternalSym(a)){' +
      'var n=e[a];(r||a!==t||GOT[t].value==0)&&',
  },
  {
    // The main module's symbols merged into the symbol table and its `dynCall_` functions registered in one walk
    // over the exports, without an array and a closure per export (`Object.entries`); before, registerDynCallSymbols
    // made a walk of its own first. The two write to different objects, so the order between them does not matter.
    what: 'mergeLibSymbols',
    from:
      'mergeLibSymbols=(e,r)=>{registerDynCallSymbols(e);' +
      'for(var[t,n]of Object.entries(e))(o=>{isSymbolDefined(o)||(wasmImports[o]=n)})(t)}',
    to:
      'mergeLibSymbols=(e,r)=>{for(var t in e)t.startsWith("dynCall_")&&!Module.hasOwnProperty(t)&&(Module[t]=e[t]),' +
      'isSymbolDefined(t)||(wasmImports[t]=e[t])}',
  },
  {
    // A copy of all 75,011 exports, made to wrap about 20 of them (pointers read as unsigned): the largest walk left
    // (0.16 s of the start code in Node, profiled). The wrappers now sit on an object whose prototype is the exports:
    // every read finds the same function or address, and nothing after this walks or copies the exports.
    what: 'applySignatureConversions',
    from: 'function applySignatureConversions(e){e=Object.assign({},e);',
    to: 'function applySignatureConversions(e){e=Object.create(e);',
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
