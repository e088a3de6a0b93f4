/** @jest-environment ./test/nodeEnvironment.js */
import { GLUE_CHANGES, GLUE_COPIES, withLeanStartCode } from '../scripts/duckdbGlue';
import { answers, bundleFrom, ENGINE_STATEMENTS, shipped } from './duckdbNode';

describe('DuckDB-WASM with a lean start code (scripts/duckdbGlue.ts)', () => {
  it('applies to each copy of the start code in the browser bundle the app builds and in the Node bundle', () => {
    for (const name of ['duckdb-browser-blocking.mjs', 'duckdb-node-blocking.cjs']) {
      const source = shipped(name);
      const patched = withLeanStartCode(source);
      expect(patched).not.toEqual(source);
      for (const { from, to } of GLUE_CHANGES) {
        expect(patched).not.toContain(from);
        expect(patched.split(to)).toHaveLength(GLUE_COPIES + 1);
      }
    }
    expect(() => withLeanStartCode('var GOT={};')).toThrow(/check scripts\/duckdbGlue.ts/);
  });

  it('answers what the shipped start code answers, errors included', async () => {
    const sql = ENGINE_STATEMENTS;
    const expected = await answers(bundleFrom(shipped('duckdb-node-blocking.cjs')), sql);
    const patched = await answers(bundleFrom(withLeanStartCode(shipped('duckdb-node-blocking.cjs'))), sql);
    expect(patched).toEqual(expected);
    expect(expected[2]).toBe('[{"s":"4999950000","a":49999.5,"g":"0,1,2"}]');
    expect(expected[6]).toMatch(/^error: Conversion Error/);
  });
});
