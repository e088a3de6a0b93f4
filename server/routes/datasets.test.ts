import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { tableFromIPC } from 'apache-arrow';
import { catalogue, getCatalogueDataset } from '../../src/contracts/catalogue';
import { datasetSchemaSchema } from '../../src/contracts/datasets';
import { START_TIMEOUT_MS } from '../../test/timeouts';
import { generateWorkspaceDatasets, workspaceDatasetDir } from '../datasets/generate';
import { licenses } from '../db/schema';
import { projectionsDir } from '../services/projectedDatasets';
import { brotliCopiesWritten } from '../services/scopedFiles';
import { addMember, createWorkspace, signIn, type SignedIn } from '../testing/fixtures';
import { createTestApp, type TestApp } from '../testing/testApp';

let t: TestApp;
let admin: SignedIn;
let outsider: SignedIn;
let workspaceId: number;
const params = { rows: 4000, seed: 3, endDate: '2026-11-21' };

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t);
  outsider = await signIn(t);
  workspaceId = (await createWorkspace(t, { adminUserId: admin.userId })).id;
  await generateWorkspaceDatasets(t.config.dataDir, workspaceId, params);
}, START_TIMEOUT_MS);

afterAll(async () => {
  await t?.close();
}, START_TIMEOUT_MS);

const url = (rest: string, id = workspaceId) => `/api/workspaces/${id}/datasets${rest}`;
const arrowFile = (datasetId: string, id = workspaceId) =>
  fs.readFileSync(path.join(workspaceDatasetDir(t.config.dataDir, id), `${datasetId}.arrow`));

describe('access', () => {
  it('answers 401 signed out, 404 to non-members and for unknown workspaces, 400 for a bad id', async () => {
    expect((await t.app.inject({ url: url('') })).statusCode).toBe(401);
    const foreign = await t.app.inject({ url: url(''), headers: outsider.headers });
    expect([foreign.statusCode, foreign.json()]).toEqual([404, { error: 'Not found' }]);
    const file = await t.app.inject({ url: url('/campaign_metrics_by_send_date'), headers: outsider.headers });
    expect(file.statusCode).toBe(404);
    expect((await t.app.inject({ url: url('', 2_000_000_000), headers: admin.headers })).statusCode).toBe(404);
    const bad = await t.app.inject({ url: '/api/workspaces/abc/datasets', headers: admin.headers });
    expect([bad.statusCode, bad.json()]).toEqual([400, { error: 'Invalid workspace id' }]);
  });

  it('lets a plain member read datasets', async () => {
    const member = await signIn(t);
    await addMember(t, workspaceId, member.userId, 'member');
    expect((await t.app.inject({ url: url(''), headers: member.headers })).statusCode).toBe(200);
  });

  it('refuses every public report variant for a report without a public link and for an unknown one', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${workspaceId}/reports/dashboard`,
      headers: admin.headers,
      payload: { title: 'Private' },
    });
    expect(created.statusCode).toBe(201);
    const privateId = created.json().data.id;
    for (const reportId of [privateId, 2_000_000_000]) {
      for (const rest of ['', '/campaign_metrics_by_send_date', '/campaigns/cmp-1']) {
        const response = await t.app.inject({
          url: `/api/reports/${reportId}/datasets${rest}`,
          headers: admin.headers,
        });
        expect([response.statusCode, response.json()]).toEqual([404, { error: 'Not found' }]);
      }
    }
  });
});

describe('GET …/datasets', () => {
  it('lists id and title of the datasets the workspace may use', async () => {
    const response = await t.app.inject({ url: url(''), headers: admin.headers });
    const ids = response.json().datasets.map((d: { id: string }) => d.id);
    expect(ids).toContain('campaign_metrics_by_send_date');
    expect(ids).not.toContain('list_members');
    expect(ids).not.toContain('workspaces');
    expect(ids).not.toContain('engagement_contacts');
    expect(response.json().datasets[0]).toEqual({
      id: 'campaign_metrics_by_send_date',
      title: 'Campaigns by send date',
    });
  });

  it('adds list_members with its flag and workspaces for an agency licence', async () => {
    const [licence] = await t.db.db
      .insert(licenses)
      .values({ type: 'agency', holderName: 'Agency' })
      .returning({ id: licenses.id });
    const other = await createWorkspace(t, {
      adminUserId: admin.userId,
      features: ['list_members', 'engagement'],
      licenseId: licence.id,
    });
    const ids = (await t.app.inject({ url: url('', other.id), headers: admin.headers }))
      .json()
      .datasets.map((d: { id: string }) => d.id);
    expect(ids).toEqual(expect.arrayContaining(['list_members', 'workspaces']));
    expect(ids).not.toContain('engagement_segments');
  });

  it('serves the engagement tables, unlisted, only to a workspace with the engagement flag', async () => {
    const flagged = await createWorkspace(t, { adminUserId: admin.userId, features: ['engagement'] });
    await generateWorkspaceDatasets(t.config.dataDir, flagged.id, params);
    const listed = (await t.app.inject({ url: url('', flagged.id), headers: admin.headers })).json().datasets;
    expect(listed.map((d: { id: string }) => d.id)).not.toContain('engagement_segments');
    for (const id of ['engagement_segments', 'engagement_contacts']) {
      const schema = await t.app.inject({ url: url(`/${id}?schema=true`, flagged.id), headers: admin.headers });
      expect([id, schema.statusCode, schema.json().id]).toEqual([id, 200, id]);
      const file = await t.app.inject({ url: url(`/${id}`, flagged.id), headers: admin.headers });
      expect(file.statusCode).toBe(200);
      expect(tableFromIPC(file.rawPayload).numRows).toBe(tableFromIPC(arrowFile(id, flagged.id)).numRows);
      expect((await t.app.inject({ url: url(`/${id}`), headers: admin.headers })).statusCode).toBe(404);
    }
    // The first-need test below counts the workspaces with generated files.
    fs.rmSync(workspaceDatasetDir(t.config.dataDir, flagged.id), { recursive: true, force: true });
  });

  it('answers 404 for a dataset the workspace may not use or that does not exist', async () => {
    for (const id of ['list_members', 'engagement_contacts', 'nope', 'CAMPAIGNS']) {
      expect((await t.app.inject({ url: url(`/${id}?schema=true`), headers: admin.headers })).statusCode).toBe(404);
    }
  });
});

describe('?schema=true', () => {
  it('gives each dataset the catalogue schema', async () => {
    for (const dataset of catalogue.filter((d) => d.listed && !['list_members', 'workspaces'].includes(d.id))) {
      const response = await t.app.inject({ url: url(`/${dataset.id}?schema=true`), headers: admin.headers });
      expect(response.statusCode).toBe(200);
      const schema = datasetSchemaSchema.parse(response.json());
      expect(schema.id).toBe(dataset.id);
      expect(schema.tableId).toBe(dataset.id);
      expect(schema.dateField).toBe(dataset.dateField);
      expect(schema.fields.map((f) => [f.id, f.format, f.type, f.agg, f.features])).toEqual(
        dataset.fields.map((f) => [f.id, f.format, f.type, f.agg, f.features]),
      );
    }
  });

  it("counts the rows of the workspace's current file, as its Arrow stream holds them", async () => {
    const id = 'campaign_metrics_by_send_date';
    const response = await t.app.inject({ url: url(`/${id}?schema=true`), headers: admin.headers });
    const { rowCount } = datasetSchemaSchema.parse(response.json());
    expect(rowCount).toBeGreaterThan(0);
    expect(rowCount).toBe(tableFromIPC(arrowFile(id)).numRows);
  });

  it('matches the catalogue contract for the main dataset', async () => {
    const schema = (
      await t.app.inject({ url: url('/campaign_metrics_by_send_date?schema=true'), headers: admin.headers })
    ).json();
    const field = (id: string) => schema.fields.find((f: { id: string }) => f.id === id);
    expect(field('campaign_id').features).toEqual(['hide']);
    expect(field('campaigns').agg).toEqual({ type: 'count_distinct', field: 'campaign_id' });
    expect(field('bounce_rate')).toMatchObject({
      format: 'percent',
      agg: { type: 'weighted_avg', numerator: 'bounces', denominator: 'sent' },
      features: ['baseline', 'negative_measure'],
    });
    expect(field('clicks_unique').features).toEqual(['funnel']);
    expect(field('country').format).toBe('country');
    expect(field('sent').agg).toEqual({ type: 'sum' });
    expect(getCatalogueDataset('list_members')!.fields.find((f) => f.id === 'members')!.features).toEqual(['gauge']);
  });
});

describe('the dataset file', () => {
  it('streams the Arrow file gzip-encoded with its uncompressed length, ETag and private caching', async () => {
    const response = await t.app.inject({
      url: url('/campaign_metrics_by_send_date'),
      headers: { ...admin.headers, 'accept-encoding': 'gzip, deflate, br' },
    });
    const file = arrowFile('campaign_metrics_by_send_date');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers['content-type']).toBe('application/vnd.apache.arrow.stream');
    expect(response.headers['x-total-length']).toBe(String(file.length));
    expect(response.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{20}"$/);
    expect(Number(response.headers['content-length'])).toBeLessThan(file.length / 3);
    const body = zlib.gunzipSync(response.rawPayload);
    expect(body.equals(file)).toBe(true);
    // Readable as Arrow with dictionary-encoded strings and every stored column.
    const table = tableFromIPC(body);
    expect(table.numRows).toBe(1000);
    const typeOf = (name: string) => String(table.schema.fields.find((f) => f.name === name)?.type);
    // Indices as narrow as the dictionary allows: four campaign types fit in a byte.
    expect(typeOf('campaign_type')).toBe('Dictionary<Int8, Utf8>');
    expect(typeOf('webview_url')).toMatch(/^Dictionary<Int(8|16|32), Utf8>$/);
    expect(table.schema.fields.map((f) => f.name)).toEqual(
      getCatalogueDataset('campaign_metrics_by_send_date')!
        .fields.filter((f) => f.type === 'dimension' || f.agg?.type === 'sum')
        .map((f) => f.id),
    );
    expect(table.getChild('campaign_type')?.toArray().slice(0, 1)).toEqual([expect.any(String)]);
  });

  it('sends the plain file to clients without gzip', async () => {
    const response = await t.app.inject({
      url: url('/ga4'),
      headers: { ...admin.headers, 'accept-encoding': 'identity' },
    });
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.rawPayload.equals(arrowFile('ga4'))).toBe(true);
  });

  it('answers 304 to If-None-Match with the current ETag, and the file to an old one', async () => {
    const first = await t.app.inject({ url: url('/forms'), headers: admin.headers });
    const etag = String(first.headers.etag);
    const again = await t.app.inject({ url: url('/forms'), headers: { ...admin.headers, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    const stale = await t.app.inject({ url: url('/forms'), headers: { ...admin.headers, 'if-none-match': '"old"' } });
    expect(stale.statusCode).toBe(200);
  });

  it('resumes a download cut half-way into a byte-identical file', async () => {
    // A real socket, so the first download is really cut; the app's close ends the listener.
    const address = await t.listen();
    const target = `${address}${url('/campaign_metrics_by_event_date')}`;
    const file = arrowFile('campaign_metrics_by_event_date');
    const controller = new AbortController();
    const first = await fetch(target, { headers: { cookie: admin.headers.cookie }, signal: controller.signal });
    expect(first.headers.get('content-encoding')).toBe('gzip');
    const total = Number(first.headers.get('x-total-length'));
    const etag = first.headers.get('etag')!;
    const received: Buffer[] = [];
    let length = 0;
    const reader = first.body!.getReader();
    while (length < total / 2) {
      const { value, done } = await reader.read();
      if (done) break;
      received.push(Buffer.from(value));
      length += value.length;
    }
    controller.abort();
    // Whatever arrived in the last chunk, the client keeps exactly the first half.
    const half = Buffer.concat(received).subarray(0, Math.floor(total / 2));
    length = half.length;

    const rest = await fetch(target, {
      headers: { cookie: admin.headers.cookie, range: `bytes=${length}-`, 'if-range': etag },
    });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes ${length}-${total - 1}/${total}`);
    const whole = Buffer.concat([half, Buffer.from(await rest.arrayBuffer())]);
    expect(whole.length).toBe(file.length);
    expect(whole.equals(file)).toBe(true);
  });

  it('answers a range of another version with the whole file, and 416 beyond the end', async () => {
    const size = arrowFile('forms').length;
    const changed = await t.app.inject({
      url: url('/forms'),
      headers: { ...admin.headers, range: 'bytes=10-', 'if-range': '"old"', 'accept-encoding': 'identity' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.rawPayload.length).toBe(size);
    const tail = await t.app.inject({ url: url('/forms'), headers: { ...admin.headers, range: 'bytes=-100' } });
    expect([tail.statusCode, tail.headers['content-range']]).toEqual([206, `bytes ${size - 100}-${size - 1}/${size}`]);
    expect(tail.rawPayload.equals(arrowFile('forms').subarray(size - 100))).toBe(true);
    const beyond = await t.app.inject({ url: url('/forms'), headers: { ...admin.headers, range: `bytes=${size}-` } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${size}`);
  });
});

describe('a projected dataset file (?columns=)', () => {
  const dataset = 'campaign_metrics_by_event_date';
  const projected = (columns: string, id = workspaceId, headers: Record<string, string> = {}) =>
    t.app.inject({ url: url(`/${dataset}?columns=${columns}`, id), headers: { ...admin.headers, ...headers } });
  /** Rows as plain strings, so Arrow's and DuckDB's value types compare. */
  const rowsOf = (columns: string[], values: (index: number, column: string) => unknown, count: number) =>
    Array.from({ length: count }, (_, index) =>
      columns.map((column) => {
        const value = values(index, column);
        return value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
      }),
    );

  /** Runs `read` on a connection where the DuckDB file `bytes` is attached read-only as `received`. */
  async function withReceivedFile<T>(bytes: Buffer, read: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const file = path.join(t.config.dataDir, 'received.duckdb');
    fs.writeFileSync(file, bytes);
    const instance = await DuckDBInstance.create(':memory:');
    try {
      const connection = await instance.connect();
      try {
        await connection.run(`ATTACH '${file}' AS received (READ_ONLY)`);
        return await read(connection);
      } finally {
        connection.closeSync();
      }
    } finally {
      instance.closeSync();
      fs.rmSync(file, { force: true });
    }
  }

  it('holds only the named stored columns and every row, equal to a DuckDB query over the Parquet file', async () => {
    // Unsorted, repeated, with a computed field (no column of its own).
    const response = await projected('sent,event_date,open_rate,country,campaign_id,sent', workspaceId, {
      'accept-encoding': 'gzip',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    const body = zlib.gunzipSync(response.rawPayload);
    expect(response.headers['x-total-length']).toBe(String(body.length));
    expect(response.headers['cache-control']).toBe('private, max-age=0, must-revalidate');
    const full = await t.app.inject({ url: url(`/${dataset}`), headers: admin.headers });
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{20}"$/);
    expect(response.headers.etag).not.toBe(full.headers.etag);
    const table = tableFromIPC(body);
    const columns = ['campaign_id', 'country', 'event_date', 'sent'];
    expect(table.schema.fields.map((f) => f.name).sort()).toEqual(columns);

    const parquet = path.join(workspaceDatasetDir(t.config.dataDir, workspaceId), `${dataset}.parquet`);
    const instance = await DuckDBInstance.create(':memory:');
    try {
      const connection = await instance.connect();
      const reader = await connection.runAndReadAll(
        `SELECT ${columns.join(', ')} FROM read_parquet('${parquet}') ORDER BY ALL`,
      );
      const expected = reader.getRowObjectsJS();
      expect(expected.length).toBeGreaterThan(1000);
      expect(table.numRows).toBe(expected.length);
      const actual = rowsOf(columns, (i, c) => table.getChild(c)!.get(i), table.numRows);
      const sortKey = (row: string[]) => row.join('|');
      const ordered = (rows: string[][]) => rows.map(sortKey).sort();
      const fromDuckDB = rowsOf(columns, (i, c) => expected[i][c], expected.length);
      // Arrow dates are milliseconds: written as the same calendar day.
      const days = (rows: string[][]) =>
        rows.map((row) =>
          row.map((v, k) =>
            columns[k] === 'event_date' && /^\d+$/.test(v) ? new Date(Number(v)).toISOString().slice(0, 10) : v,
          ),
        );
      expect(ordered(days(actual))).toEqual(ordered(days(fromDuckDB)));
      connection.closeSync();
    } finally {
      instance.closeSync();
    }
  });

  it('files equal sets once: the same ETag for any order, 304 when it matches', async () => {
    const a = await projected('sent,country');
    const b = await projected('country,sent,country');
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.headers.etag).toBe(b.headers.etag);
    expect(a.rawPayload.equals(b.rawPayload)).toBe(true);
    const again = await projected('country,sent', workspaceId, { 'if-none-match': String(a.headers.etag) });
    expect(again.statusCode).toBe(304);
    // One directory per version of the source, holding a file per column set.
    const versions = fs.readdirSync(projectionsDir(t.config.dataDir, workspaceId, dataset));
    expect(versions).toEqual([expect.stringMatching(/^[0-9a-f]{20}$/)]);
  });

  it('sends a column set as a DuckDB file with ?format=duckdb: its own ETag, the rows of the Arrow file', async () => {
    const gzip = { 'accept-encoding': 'gzip' };
    const asDuckdb = (query: string, headers: Record<string, string> = gzip) =>
      t.app.inject({ url: url(`/${dataset}?${query}`), headers: { ...admin.headers, ...headers } });
    const arrow = await projected('sent,country', workspaceId, gzip);
    const response = await asDuckdb('columns=sent,country&format=duckdb');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/octet-stream');
    expect(response.headers['content-encoding']).toBe('gzip');
    const body = zlib.gunzipSync(response.rawPayload);
    expect(response.headers['x-total-length']).toBe(String(body.length));
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{20}"$/);
    expect(response.headers.etag).not.toBe(arrow.headers.etag);
    // A DuckDB database file (its header's magic bytes), holding the Arrow file's rows.
    expect(body.subarray(8, 12).toString()).toBe('DUCK');
    const fromFile = await withReceivedFile(body, async (connection) =>
      (await connection.runAndReadAll(`SELECT country, sent FROM received.${dataset}`))
        .getRowObjectsJS()
        .map((row) => `${row.country}|${row.sent}`),
    );
    const table = tableFromIPC(zlib.gunzipSync(arrow.rawPayload));
    const fromArrow = Array.from({ length: table.numRows }, (_, i) => {
      return `${table.getChild('country')!.get(i)}|${table.getChild('sent')!.get(i)}`;
    });
    expect(fromFile.length).toBeGreaterThan(1000);
    expect(fromFile.sort()).toEqual(fromArrow.sort());
    // Once its brotli copy is written (after the build), a browser accepting brotli gets the same bytes
    // brotli-encoded, under the same ETag, and fewer of them.
    await brotliCopiesWritten();
    const brotli = await asDuckdb('columns=sent,country&format=duckdb', { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.etag).toBe(response.headers.etag);
    expect(brotli.headers['content-length']).toBe(String(brotli.rawPayload.length));
    expect(zlib.brotliDecompressSync(brotli.rawPayload).equals(body)).toBe(true);
    expect(brotli.rawPayload.length).toBeLessThan(response.rawPayload.length);
    const again = await asDuckdb('columns=country,sent&format=duckdb', {
      'if-none-match': String(response.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    // Only a column set comes as a DuckDB file; no other format exists.
    for (const query of ['format=duckdb', 'columns=sent&format=parquet']) {
      const refused = await asDuckdb(query);
      expect([query, refused.statusCode]).toEqual([query, 400]);
      expect(refused.json().error).toMatch(/^Invalid querystring: format/);
    }
  });

  it('keeps only the rows from ?since= on, under their own ETag, equal to a DuckDB query over the Parquet file', async () => {
    const since = '2026-06-01';
    const query = `columns=sent,event_date&format=duckdb&since=${since}`;
    const response = await t.app.inject({ url: url(`/${dataset}?${query}`), headers: admin.headers });
    expect(response.statusCode).toBe(200);
    const whole = await t.app.inject({
      url: url(`/${dataset}?columns=sent,event_date&format=duckdb`),
      headers: admin.headers,
    });
    expect(response.headers.etag).not.toBe(whole.headers.etag);
    const parquet = path.join(workspaceDatasetDir(t.config.dataDir, workspaceId), `${dataset}.parquet`);
    await withReceivedFile(response.rawPayload, async (connection) => {
      const read = async (sql: string) =>
        (await connection.runAndReadAll(sql)).getRowObjectsJS().map((row) => `${String(row.d)}|${row.sent}`);
      const received = await read(
        `SELECT CAST(event_date AS VARCHAR) AS d, sent FROM received.${dataset} ORDER BY ALL`,
      );
      const expected = await read(
        `SELECT CAST(event_date AS VARCHAR) AS d, sent FROM read_parquet('${parquet}') ` +
          `WHERE CAST(event_date AS DATE) >= DATE '${since}' ORDER BY ALL`,
      );
      const before = await read(`SELECT 0 AS d, count(*) AS sent FROM read_parquet('${parquet}')`);
      expect(received.length).toBeGreaterThan(100);
      // The file holds the dataset's days from that one on, and there were earlier days to leave out.
      expect(Number(before[0].split('|')[1])).toBeGreaterThan(received.length);
      expect(received).toEqual(expected);
    });
    const refusals = {
      'columns=sent&since=2026-02-30': 'Invalid querystring: since: Invalid day',
      'columns=sent&since=June': 'Invalid querystring: since: Invalid day',
      'since=2026-06-01': 'Invalid querystring: since: since needs columns',
    };
    for (const [bad, error] of Object.entries(refusals)) {
      const refused = await t.app.inject({ url: url(`/${dataset}?${bad}`), headers: admin.headers });
      expect([bad, refused.statusCode, refused.json().error]).toEqual([bad, 400, error]);
    }
  });

  it("answers a later day at once with an earlier day's file, and builds the day's own for the next request", async () => {
    const ask = (since: string) =>
      t.app.inject({
        url: url(`/${dataset}?columns=sent,event_date,country&format=duckdb&since=${since}`),
        headers: admin.headers,
      });
    /** The first day of a DuckDB file's rows. */
    const firstDay = (payload: Buffer) =>
      withReceivedFile(payload, async (connection) => {
        const [row] = (
          await connection.runAndReadAll(`SELECT CAST(min(event_date) AS DATE)::VARCHAR AS d FROM received.${dataset}`)
        ).getRowObjectsJS();
        return String(row.d);
      });
    const may = await ask('2026-05-01');
    expect(await firstDay(may.rawPayload)).toMatch(/^2026-05-0/);
    // June's file is not built: May's answers (its rows from June on are June's), with May's ETag.
    const standIn = await ask('2026-06-01');
    expect([standIn.statusCode, standIn.headers.etag]).toEqual([200, may.headers.etag]);
    // Meanwhile June's own is built, and the next request gets it.
    let june = standIn;
    for (const started = Date.now(); june.headers.etag === may.headers.etag && Date.now() - started < 30_000;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      june = await ask('2026-06-01');
    }
    expect(june.headers.etag).not.toBe(may.headers.etag);
    expect(await firstDay(june.rawPayload)).toMatch(/^2026-06-0/);
    // An earlier day than any built is built for its request: no file holds its rows.
    expect(await firstDay((await ask('2026-04-01')).rawPayload)).toMatch(/^2026-04-0/);
  });

  it('answers 400 for an unknown or malformed column, 404 to another workspace', async () => {
    for (const columns of ['sent,nope', 'sent,', '', 'sent;DROP', 'SENT']) {
      const response = await projected(columns);
      expect([columns, response.statusCode]).toEqual([columns, 400]);
      expect(response.json().error).toMatch(/^Invalid querystring: columns/);
    }
    const foreign = await projected('sent', workspaceId, outsider.headers);
    expect([foreign.statusCode, foreign.json()]).toEqual([404, { error: 'Not found' }]);
    const other = await createWorkspace(t, { adminUserId: outsider.userId });
    const crossed = await t.app.inject({ url: url(`/${dataset}?columns=sent`, other.id), headers: admin.headers });
    expect(crossed.statusCode).toBe(404);
  });
});

describe('campaign web-view URL', () => {
  it('gives the URL of a known campaign and null otherwise', async () => {
    const known = await t.app.inject({ url: url('/campaigns/cmp-5'), headers: admin.headers });
    expect(known.json()).toEqual({ url: 'https://view.openrate.app/c/5' });
    const unknown = await t.app.inject({ url: url("/campaigns/cmp-x' OR 1=1"), headers: admin.headers });
    expect(unknown.json()).toEqual({ url: null });
  });
});

describe('generation on first need', () => {
  it('generates a new workspace once, even for two requests at the same time', async () => {
    const fresh = await createWorkspace(t, { adminUserId: admin.userId });
    const [a, b] = await Promise.all([
      t.app.inject({ url: url('/forms', fresh.id), headers: { ...admin.headers, 'accept-encoding': 'identity' } }),
      t.app.inject({ url: url('/squeezely', fresh.id), headers: { ...admin.headers, 'accept-encoding': 'identity' } }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.rawPayload.equals(arrowFile('forms', fresh.id))).toBe(true);
    const entries = fs.readdirSync(path.join(t.config.dataDir, 'datasets'));
    expect(entries.sort()).toEqual([String(workspaceId), String(fresh.id)].sort());
  }, 60_000);
});
