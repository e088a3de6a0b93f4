/** @jest-environment ./test/nodeEnvironment.js */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { withReachableExports } from '../scripts/duckdbWasm';
import { answers, bundleFrom, DUCKDB_DIST, ENGINE_STATEMENTS, shipped } from './duckdbNode';
import { START_TIMEOUT_MS } from './timeouts';

const moduleBytes = (name: string) => new Uint8Array(fs.readFileSync(path.join(DUCKDB_DIST, name)));

/** Every section's bytes but the exports', in order: what the trimming must leave as it was. */
function otherSections(module: Uint8Array<ArrayBuffer>): string[] {
  const compiled = new WebAssembly.Module(module);
  const customs = ['dylink.0', 'name', 'producers', 'target_features'].flatMap((name) =>
    WebAssembly.Module.customSections(compiled, name).map(
      (bytes) => `${name}:${Buffer.from(bytes).toString('base64')}`,
    ),
  );
  return [...customs, JSON.stringify(WebAssembly.Module.imports(compiled))];
}

describe("DuckDB's modules with only the exports their start code reaches (scripts/duckdbWasm.ts)", () => {
  const bundleSource = shipped('duckdb-browser-blocking.mjs');

  it.each(['duckdb-eh.wasm', 'duckdb-mvp.wasm'])(
    '%s keeps the exports the browser bundle names, and nothing else changes',
    (name) => {
      const original = moduleBytes(name);
      const { module, kept } = withReachableExports(original, bundleSource);
      const exported = WebAssembly.Module.exports(new WebAssembly.Module(module)).map((entry) => entry.name);
      expect(exported).toEqual(kept);
      expect(kept).toEqual(expect.arrayContaining(['duckdb_web_open', 'duckdb_web_query_run', 'malloc', 'free']));
      // 75,011 exports before; the names were 7.4 MB of the eh module's 34 MB.
      expect(WebAssembly.Module.exports(new WebAssembly.Module(original)).length).toBeGreaterThan(70_000);
      expect(kept.length).toBeLessThan(1_000);
      expect(otherSections(module)).toEqual(otherSections(original));
    },
    START_TIMEOUT_MS,
  );

  it('refuses a module whose exports no longer include what every start needs', () => {
    expect(() => withReachableExports(moduleBytes('duckdb-eh.wasm'), 'wasmExports.main')).toThrow(
      /check scripts\/duckdbWasm.ts/,
    );
  });

  it.each(['eh', 'mvp'] as const)(
    'the trimmed %s module answers what the shipped one answers, errors included',
    async (bundle) => {
      const nodeSource = shipped('duckdb-node-blocking.cjs');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-duckdb-wasm-'));
      try {
        const trimmed = path.join(dir, `duckdb-${bundle}.wasm`);
        fs.writeFileSync(trimmed, withReachableExports(moduleBytes(`duckdb-${bundle}.wasm`), nodeSource).module);
        const only = (mainModule: string) => ({ mvp: { mainModule, mainWorker: '' } });
        const modules = (file: string) =>
          bundle === 'eh' ? { ...only(file), eh: { mainModule: file, mainWorker: '' } } : only(file);
        const node = bundleFrom(nodeSource);
        const expected = await answers(
          node,
          ENGINE_STATEMENTS,
          modules(path.join(DUCKDB_DIST, `duckdb-${bundle}.wasm`)),
        );
        expect(await answers(node, ENGINE_STATEMENTS, modules(trimmed))).toEqual(expected);
        expect(expected[2]).toBe('[{"s":"4999950000","a":49999.5,"g":"0,1,2"}]');
        // The mvp module's C++ exceptions reach Node's start code as "_setThrew is not defined", shipped or trimmed.
        expect(expected[6]).toMatch(bundle === 'eh' ? /^error: Conversion Error/ : /^error: /);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
    START_TIMEOUT_MS,
  );
});
