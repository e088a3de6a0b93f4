import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { START_TIMEOUT_MS } from '../test/timeouts';
import { createTestApp, type TestApp } from './testing/testApp';

/** A minimal production build: an index page, a hashed script, an unhashed file and a wasm module. */
function makeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-dist-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dir, 'main.0123456789abcdef.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *');
  fs.mkdirSync(path.join(dir, 'duckdb'));
  fs.writeFileSync(path.join(dir, 'duckdb', 'duckdb-eh.0123456789abcdef.wasm'), Buffer.from([0, 97, 115, 109]));
  return dir;
}

describe('server', () => {
  let t: TestApp;
  let staticDir: string;

  beforeAll(async () => {
    staticDir = makeBuild();
    t = await createTestApp({ staticDir });
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await t?.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  }, START_TIMEOUT_MS);

  it('reports health with the database it runs on', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: process.env.DATABASE_URL ? 'postgres' : 'pglite' });
  });

  it('answers unknown API paths with a JSON 404, never the app page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found' });
  });

  it.each(['/', '/login', '/workspaces/42/reports/dashboard/7', '/some/unknown/path?x=1'])(
    'serves the app page for the client route %s without caching it',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    },
  );

  it('lets browsers keep hashed assets for a year and revalidate the rest', async () => {
    const hashed = await t.app.inject({ method: 'GET', url: '/main.0123456789abcdef.js' });
    expect(hashed.statusCode).toBe(200);
    expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await t.app.inject({ method: 'GET', url: '/robots.txt' });
    expect(plain.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  });

  it('serves DuckDB modules as application/wasm', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/duckdb/duckdb-eh.0123456789abcdef.wasm' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/wasm');
  });

  it("sends the build's precompressed copies of a DuckDB module as they are, never compressing it again", async () => {
    const wasm = path.join(staticDir, 'duckdb', 'duckdb-mvp.0123456789abcdef.wasm');
    const original = Buffer.from('\0asm'.padEnd(200_000, 'duckdb '));
    fs.writeFileSync(wasm, original);
    // Marked copies: only a server sending the files themselves answers with these bytes.
    const brotli = zlib.brotliCompressSync(Buffer.concat([original, Buffer.from('br copy')]));
    const gzip = zlib.gzipSync(Buffer.concat([original, Buffer.from('gz copy')]));
    fs.writeFileSync(`${wasm}.br`, brotli);
    fs.writeFileSync(`${wasm}.gz`, gzip);
    const url = '/duckdb/duckdb-mvp.0123456789abcdef.wasm';
    for (const [accept, encoding, body] of [
      ['br, gzip', 'br', brotli],
      ['gzip', 'gzip', gzip],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': accept } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.headers['content-type']).toBe('application/wasm');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers.vary).toMatch(/accept-encoding/i);
      expect(res.rawPayload.equals(body)).toBe(true);
    }
    const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(original)).toBe(true);
  });

  it('does not answer a missing asset with the app page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/main.ffffffffffffffff.js' });
    expect(res.statusCode).toBe(404);
  });

  it('compresses large responses in transit', async () => {
    fs.writeFileSync(path.join(staticDir, 'big.0123456789abcdef.js'), 'x'.repeat(50_000));
    const res = await t.app.inject({
      method: 'GET',
      url: '/big.0123456789abcdef.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload.length).toBeLessThan(5_000);
  });
});
