import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { START_TIMEOUT_MS } from '../test/timeouts';
import { workspaceAssets } from './db/schema';
import { CONTENT_SECURITY_POLICY } from './http/security';
import { createWorkspace, signIn } from './testing/fixtures';
import { createTestApp, type TestApp } from './testing/testApp';

/** A minimal production build: an index page, a hashed script, an unhashed file, an icon and a wasm module. */
function makeBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openrate-dist-'));
  fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(dir, 'main.0123456789abcdef.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *');
  fs.mkdirSync(path.join(dir, 'icons', '16px'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'icons', '16px', 'plus.0123456789abcdef.json'), '["M0 0h16v16H0z"]');
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
    // The icon paths the app fetches one by one (named with the build's icon set hash).
    const icon = await t.app.inject({ method: 'GET', url: '/icons/16px/plus.0123456789abcdef.json' });
    expect(icon.statusCode).toBe(200);
    expect(icon.json()).toEqual(['M0 0h16v16H0z']);
    expect(icon.headers['cache-control']).toBe('public, max-age=31536000, immutable');
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

  describe('security headers', () => {
    it.each([
      '/',
      '/workspaces/42/reports/dashboard/7',
      '/main.0123456789abcdef.js',
      '/duckdb/duckdb-eh.0123456789abcdef.wasm',
      '/api/health',
      '/api/no-such-thing',
      '/session',
    ])('sends the CSP and nosniff with %s', async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    });

    it('lets the product run DuckDB and its workers but nothing frame it or load plugins', () => {
      const directives = new Map(
        CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)] as const),
      );
      expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(directives.get('worker-src')).toEqual(["'self'", 'blob:']);
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(directives.get('object-src')).toEqual(["'none'"]);
      expect(directives.get('base-uri')).toEqual(["'none'"]);
      expect(CONTENT_SECURITY_POLICY).not.toContain("'unsafe-eval'");
    });

    it('sends no Referer from the sign-in link page, whose address holds the code', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/login/email/abc123?code=ABCDE12345' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      const invitation = await t.app.inject({ method: 'GET', url: '/api/invitations/abc123' });
      expect(invitation.headers['referrer-policy']).toBe('no-referrer');
    });

    it('keeps signed-in answers out of every cache, the MFA secret above all', async () => {
      const user = await signIn(t);
      const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: user.headers });
      expect(me.statusCode).toBe(200);
      expect(me.headers['cache-control']).toBe('no-store');
      const setup = await t.app.inject({ method: 'POST', url: '/api/me/mfa/setup', headers: user.headers });
      expect(setup.json()).toHaveProperty('secret');
      expect(setup.headers['cache-control']).toBe('no-store');
      const refused = await t.app.inject({ method: 'GET', url: '/api/me' });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['cache-control']).toBe('no-store');
    });

    it('keeps the caching and CSP a route sets itself (a workspace logo)', async () => {
      const admin = await signIn(t);
      const workspace = await createWorkspace(t, { adminUserId: admin.userId });
      // Unique per run: the PostgreSQL database outlives one run of the suite.
      const id = `${randomBytes(12).toString('hex')}.png`;
      await t.db.db
        .insert(workspaceAssets)
        .values({ id, workspaceId: workspace.id, contentType: 'image/png', data: Buffer.from([137, 80, 78, 71]) });
      const res = await t.app.inject({ method: 'GET', url: `/api/assets/workspaces/${workspace.id}/${id}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });
  });
});
