/**
 * Writes a DuckDB module as the app serves it (scripts/duckdbWasm.ts): `tsx scripts/duckdbWasmCli.ts <module.wasm>
 * <bundle.js> <out.wasm>`, where the bundle is the start code that will run it. For tests (Jest's transform cannot
 * load binaryen, an ES module with top-level await) and for looking at the result.
 */
import fs from 'node:fs';
import { servedModule } from './duckdbWasm';

const [input, bundle, output] = process.argv.slice(2);
if (!input || !bundle || !output) {
  console.error('usage: tsx scripts/duckdbWasmCli.ts <module.wasm> <bundle.js> <out.wasm>');
  process.exit(2);
}
void servedModule(new Uint8Array(fs.readFileSync(input)), fs.readFileSync(bundle, 'utf8')).then((served) =>
  fs.writeFileSync(output, served),
);
