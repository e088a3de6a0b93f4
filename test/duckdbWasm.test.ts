/** @jest-environment ./test/nodeEnvironment.js */
import { execFileSync } from 'node:child_process';
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

describe("DuckDB's modules as the app serves them (scripts/duckdbWasm.ts)", () => {
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
    'the %s module as served (exports trimmed, dead code removed) answers what the shipped one answers, errors included',
    async (bundle) => {
      const nodeSource = shipped('duckdb-node-blocking.cjs');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-duckdb-wasm-'));
      try {
        const trimmed = path.join(dir, `duckdb-${bundle}.wasm`);
        // As the build writes it (binaryen is an ES module Jest's transform cannot load: in a process of its own).
        fs.writeFileSync(path.join(dir, 'bundle.cjs'), nodeSource);
        execFileSync(
          process.execPath,
          [
            '--import',
            'tsx',
            path.join(__dirname, '../scripts/duckdbWasmCli.ts'),
            path.join(DUCKDB_DIST, `duckdb-${bundle}.wasm`),
            path.join(dir, 'bundle.cjs'),
            trimmed,
          ],
          { timeout: START_TIMEOUT_MS, stdio: 'inherit' },
        );
        expect(fs.statSync(trimmed).size).toBeLessThan(moduleBytes(`duckdb-${bundle}.wasm`).length * 0.9);
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
