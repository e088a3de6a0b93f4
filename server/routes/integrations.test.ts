import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { and, eq, sql } from 'drizzle-orm';
import { getCatalogueDataset, toDatasetSchema } from '../../src/contracts/catalogue';
import { INTEGRATION_ERRORS } from '../../src/contracts/integrations';
import { integrations, jobs, pushAccounts } from '../db/schema';
import { SIMULATOR_CREDENTIALS, SIMULATOR_KLAVIYO_CAMPAIGNS } from '../integrations/simulator';
import { IMPORT_KLAVIYO, integrationImportHandlers } from '../jobs/imports';
import { BUILD_PROJECTIONS, projectionHandlers } from '../jobs/projections';
import { JobWorker } from '../jobs/worker';
import { datasetFile } from '../services/datasets';
import { projectionsDir } from '../services/projectedDatasets';
import { addMember, adminWithWorkspace, createWorkspace, signIn, type SignedIn } from '../testing/fixtures';
import { withSimulatedApp } from '../testing/simulatedApp';

const {
  klaviyoApiKey,
  iterableApiKey,
  copernicaToken,
  clientId,
  clientSecret,
  mailplusConsumerKey,
  mailplusConsumerSecret,
} = SIMULATOR_CREDENTIALS;

describe('integrations API against the provider simulator', () => {
  const { t, origin } = withSimulatedApp();
  // The server's job worker, run by hand: `drain` runs the queued imports (and the builds they queue) to the end.
  let worker: JobWorker;
  beforeAll(() => {
    worker = new JobWorker({
      db: t.db.db,
      log: t.app.log,
      handlers: { ...integrationImportHandlers(t.app), ...projectionHandlers(t.app) },
    });
  });

  let admin: SignedIn;
  let workspaceId: number;
  beforeEach(async () => {
    ({ admin, workspaceId } = await adminWithWorkspace(t));
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: object, who = admin) =>
    t.app.inject({ method, url: `/api/workspaces/${workspaceId}/integrations${path}`, headers: who.headers, payload });
  const storedRow = async (id: number) => (await t.db.db.select().from(integrations).where(eq(integrations.id, id)))[0];

  it('enables Klaviyo inactive, refuses a bad key with the spec message, connects a good one and seals it', async () => {
    const enabled = await call('POST', '/klaviyo');
    expect(enabled.statusCode).toBe(201);
    const { id } = enabled.json().data;
    expect((await call('GET', '')).json().data).toEqual([{ id, type: 'klaviyo', name: 'Klaviyo', units: [] }]);

    const bad = await call('PUT', `/klaviyo/${id}/connect`, { api_key: 'pk_wrong' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Failed to connect to your Klaviyo account, please check the API key.');
    expect((await storedRow(id)).credentials).toBeNull();

    const good = await call('PUT', `/klaviyo/${id}/connect`, { api_key: klaviyoApiKey });
    expect(good.statusCode).toBe(200);
    expect(good.json().data).toEqual({
      id,
      type: 'klaviyo',
      name: 'Klaviyo',
      units: [{ id: 'SimAcc', name: 'Acme Shop' }],
    });
    expect(JSON.stringify(good.json())).not.toContain(klaviyoApiKey);
    expect(JSON.stringify((await call('GET', '')).json())).not.toContain(klaviyoApiKey);
    const row = await storedRow(id);
    expect(row.credentials).toMatch(/^v1:/);
    expect(row.credentials).not.toContain(klaviyoApiKey);
    await worker.drain();
  }, 120_000);

  it('imports the Klaviyo campaigns into a new version of the campaign datasets after a connect', async () => {
    const datasetUrl = `/api/workspaces/${workspaceId}/datasets/campaign_metrics_by_send_date`;
    const before = await t.app.inject({ method: 'GET', url: datasetUrl, headers: admin.headers });
    expect(before.statusCode).toBe(200);
    const { id } = (await call('POST', '/klaviyo')).json().data;
    expect((await call('PUT', `/klaviyo/${id}/connect`, { api_key: klaviyoApiKey })).statusCode).toBe(200);

    expect(await worker.drain()).toBeGreaterThanOrEqual(2);
    const after = await t.app.inject({ method: 'GET', url: datasetUrl, headers: admin.headers });
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.rawPayload.equals(before.rawPayload)).toBe(false);

    const file = await datasetFile(t.config.dataDir, workspaceId, 'campaign_metrics_by_send_date');
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(
        `SELECT campaign_name, strftime(send_date, '%Y-%m-%d') AS day, sent::INTEGER AS sent, open::INTEGER AS open,
           clicks_unique::INTEGER AS clicks, transactions::INTEGER AS conversions, revenue::DOUBLE AS revenue
         FROM read_parquet($path) WHERE integration_name = 'Klaviyo' ORDER BY send_date`,
        { path: file.parquetPath },
      );
      expect(reader.getRowObjectsJS()).toEqual(
        SIMULATOR_KLAVIYO_CAMPAIGNS.map((campaign) => ({
          campaign_name: campaign.name,
          day: campaign.sendTime.slice(0, 10),
          sent: campaign.recipients,
          open: campaign.opens,
          clicks: campaign.clicks,
          conversions: campaign.conversions,
          revenue: campaign.conversionValue,
        })),
      );
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  }, 120_000);

  it('builds the column sets dashboards opened for the new version after an import, before anyone asks', async () => {
    const dataset = 'campaign_metrics_by_send_date';
    const since = '2026-09-01';
    const projected = (headers: Record<string, string> = {}, rows = '') =>
      t.app.inject({
        url: `/api/workspaces/${workspaceId}/datasets/${dataset}?columns=sent,country&format=duckdb${rows}`,
        headers: { ...admin.headers, ...headers },
      });
    const before = await projected();
    expect(before.statusCode).toBe(200);
    // A dashboard that reads only the days from `since` on has a file of its own.
    const recentBefore = await projected({}, `&since=${since}`);
    expect(recentBefore.statusCode).toBe(200);
    // A set nobody has asked for in a month (a dashboard's earlier days) is not built again.
    expect((await projected({}, '&since=2026-06-01')).statusCode).toBe(200);
    const oldVersionDir = fs.readdirSync(projectionsDir(t.config.dataDir, workspaceId, dataset));
    expect(oldVersionDir).toHaveLength(1);
    const setsBefore = path.join(projectionsDir(t.config.dataDir, workspaceId, dataset), oldVersionDir[0]);
    const aged = fs
      .readdirSync(setsBefore)
      .find((dir) => fs.readFileSync(path.join(setsBefore, dir, 'manifest.json'), 'utf8').includes('2026-06-01'))!;
    const monthAgo = new Date(Date.now() - 30 * 24 * 3_600_000);
    fs.utimesSync(path.join(setsBefore, aged, 'used'), monthAgo, monthAgo);
    const { id } = (await call('POST', '/klaviyo')).json().data;
    expect((await call('PUT', `/klaviyo/${id}/connect`, { api_key: klaviyoApiKey })).statusCode).toBe(200);
    expect(await worker.drain()).toBeGreaterThanOrEqual(2);
    const [build] = await t.db.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, BUILD_PROJECTIONS), sql`${jobs.payload}->>'workspaceId' = ${String(workspaceId)}`));
    expect(build).toMatchObject({ status: 'done', payload: { workspaceId } });

    // The new version's file is there, and the old version's is gone, before any request.
    const source = await datasetFile(t.config.dataDir, workspaceId, dataset);
    const versionsDir = projectionsDir(t.config.dataDir, workspaceId, dataset);
    expect(fs.readdirSync(versionsDir)).toEqual([source.version]);
    const builtDirs = fs.readdirSync(path.join(versionsDir, source.version));
    expect(builtDirs).toHaveLength(2);
    const manifests = builtDirs.map((dir) => path.join(versionsDir, source.version, dir, 'manifest.json'));
    const builtAt = manifests.map((manifest) => fs.statSync(manifest).mtimeMs);

    // The dashboard's next open gets it as it is: new rows, a new ETag, no build.
    const after = await projected({ 'if-none-match': String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    const recentAfter = await projected({ 'if-none-match': String(recentBefore.headers.etag) }, `&since=${since}`);
    expect(recentAfter.statusCode).toBe(200);
    expect(manifests.map((manifest) => fs.statSync(manifest).mtimeMs)).toEqual(builtAt);
    const file = path.join(t.config.dataDir, 'downloaded.duckdb');
    const recentFile = path.join(t.config.dataDir, 'downloaded-recent.duckdb');
    fs.writeFileSync(file, after.rawPayload);
    fs.writeFileSync(recentFile, recentAfter.rawPayload);
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await connection.run(`ATTACH '${file}' AS downloaded (READ_ONLY)`);
      await connection.run(`ATTACH '${recentFile}' AS recent (READ_ONLY)`);
      const count = async (from: string) =>
        Number((await connection.runAndReadAll(`SELECT count(*) AS n FROM ${from}`)).getRowObjectsJS()[0].n);
      const parquet = `read_parquet('${source.parquetPath}')`;
      expect(await count(`downloaded.${dataset}`)).toBe(await count(parquet));
      const { dateField } = toDatasetSchema(getCatalogueDataset(dataset)!);
      const recentRows = await count(`${parquet} WHERE CAST(${dateField} AS DATE) >= DATE '${since}'`);
      expect(recentRows).toBeGreaterThan(0);
      expect(await count(`recent.${dataset}`)).toBe(recentRows);
    } finally {
      connection.closeSync();
      instance.closeSync();
      fs.rmSync(file, { force: true });
      fs.rmSync(recentFile, { force: true });
    }
  }, 120_000);

  const datasetEtag = async () =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/workspaces/${workspaceId}/datasets/campaign_metrics_by_send_date`,
        headers: admin.headers,
      })
    ).headers.etag;
  const importJobs = (integrationId: number) =>
    t.db.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, IMPORT_KLAVIYO), sql`${jobs.payload}->>'integrationId' = ${String(integrationId)}`));
  const connectKlaviyo = (integrationId: number, idempotencyKey: string) =>
    t.app.inject({
      method: 'PUT',
      url: `/api/workspaces/${workspaceId}/integrations/klaviyo/${integrationId}/connect`,
      headers: { ...admin.headers, 'Idempotency-Key': idempotencyKey },
      payload: { api_key: klaviyoApiKey },
    });

  it('queues one import per connect: a connect repeated with its Idempotency-Key queues nothing more', async () => {
    const { id } = (await call('POST', '/klaviyo')).json().data;
    expect((await connectKlaviyo(id, 'connect-key-one-0001')).statusCode).toBe(200);
    const repeat = await connectKlaviyo(id, 'connect-key-one-0001');
    expect(repeat.statusCode).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(await importJobs(id)).toHaveLength(1);

    expect((await connectKlaviyo(id, 'connect-key-two-0002')).statusCode).toBe(200);
    await worker.drain();
    const done = await importJobs(id);
    expect(done.map((job) => job.status)).toEqual(['done', 'done']);
    // The job names the integration; the key stays sealed in the integration's row.
    expect(JSON.stringify(done)).not.toContain(klaviyoApiKey);
  }, 120_000);

  it('retries an import the provider failed, and the dataset changes only when it succeeds', async () => {
    const before = await datasetEtag();
    const { id } = (await call('POST', '/klaviyo')).json().data;
    expect((await connectKlaviyo(id, 'connect-retry-key-01')).statusCode).toBe(200);
    const template = t.config.KLAVIYO_API_URL;
    t.config.KLAVIYO_API_URL = `${origin()}/unavailable`;
    try {
      await worker.drain();
    } finally {
      t.config.KLAVIYO_API_URL = template;
    }
    const [failed] = await importJobs(id);
    expect(failed).toMatchObject({ status: 'queued', attempts: 1, lastError: INTEGRATION_ERRORS.klaviyo });
    expect(failed.runAt.getTime()).toBeGreaterThan(Date.now());
    expect(await datasetEtag()).toBe(before);

    // The back-off has passed: the next drain tries again, and this time the provider answers.
    await t.db.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, failed.id));
    await worker.drain();
    expect((await importJobs(id))[0]).toMatchObject({ status: 'done', attempts: 2 });
    expect(await datasetEtag()).not.toBe(before);
  }, 120_000);

  it('imports nothing for an integration removed before its import ran', async () => {
    const before = await datasetEtag();
    const { id } = (await call('POST', '/klaviyo')).json().data;
    expect((await connectKlaviyo(id, 'connect-removed-key1')).statusCode).toBe(200);
    expect((await call('DELETE', `/${id}`)).statusCode).toBe(200);
    await worker.drain();
    expect((await importJobs(id))[0]).toMatchObject({ status: 'done' });
    expect(await datasetEtag()).toBe(before);
  }, 120_000);

  it.each([
    ['iterable', '/iterable', { region: 'EU', api_key: iterableApiKey }, { region: 'EU', api_key: 'nope' }],
    ['copernica', '/copernica', { token: copernicaToken }, { token: 'nope' }],
    [
      'deployteq',
      '/deployteq',
      { client_id: clientId, client_secret: clientSecret },
      { client_id: clientId, client_secret: 'x' },
    ],
    [
      'webpower',
      '/mailpro',
      { client_id: clientId, client_secret: clientSecret, hostname: 'acme.webpower.eu' },
      { client_id: clientId, client_secret: 'x', hostname: 'acme.webpower.eu' },
    ],
    [
      'mailplus',
      '/mailplus',
      { consumer_key: mailplusConsumerKey, consumer_secret: mailplusConsumerSecret },
      { consumer_key: mailplusConsumerKey, consumer_secret: 'mailplus-wrong-secret' },
    ],
  ])(
    'connects %s with valid credentials and refuses invalid ones with the spec message',
    async (type, path, valid, invalid) => {
      const expected = {
        iterable: 'The API key you provided is invalid.',
        copernica: 'Failed to enable the integration, please check your API token',
        deployteq: 'Failed to enable the integration',
        webpower: 'Failed to connect to MailPro, please check the credentials you provided.',
        mailplus: 'Failed to connect to Mail+, please check the credentials you provided.',
      }[type];
      const refused = await call('POST', path, invalid);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toBe(expected);
      expect((await call('GET', '')).json().data).toEqual([]);

      const created = await call('POST', path, valid);
      expect(created.statusCode).toBe(201);
      expect(created.json().data).toMatchObject({
        type,
        units: expect.arrayContaining([expect.objectContaining({ name: expect.any(String) })]),
      });
      const row = await storedRow(created.json().data.id);
      for (const secret of Object.values(valid)) if (secret.length > 3) expect(row.credentials).not.toContain(secret);
    },
  );

  it('refuses a MailPro hostname that points at 127.0.0.1 without calling it', async () => {
    const template = t.config.MAILPRO_API_URL;
    t.config.MAILPRO_API_URL = 'https://{hostname}';
    try {
      for (const hostname of ['127.0.0.1', 'localhost', '169.254.169.254']) {
        const res = await call('POST', '/mailpro', { client_id: clientId, client_secret: clientSecret, hostname });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toBe(INTEGRATION_ERRORS.mailpro);
      }
    } finally {
      t.config.MAILPRO_API_URL = template;
    }
    expect((await call('GET', '')).json().data).toEqual([]);
  });

  it('walks the Copernica tree and saves renamed tracked views', async () => {
    const { id } = (await call('POST', '/copernica', { token: copernicaToken })).json().data;
    const databases = await call('GET', `/copernica/${id}/databases`);
    expect(databases.json().data).toEqual([
      { id: '1', name: 'Newsletter subscribers', has_children: true },
      { id: '2', name: 'Customers', has_children: true },
    ]);
    expect((await call('GET', `/copernica/${id}/databases/1/views`)).json().data).toEqual([
      { id: '11', name: 'Active subscribers', has_children: true },
      { id: '12', name: 'Unsubscribed', has_children: false },
    ]);
    expect((await call('GET', `/copernica/${id}/views/11/views`)).json().data).toContainEqual({
      id: '111',
      name: 'Netherlands',
      has_children: false,
    });
    const saved = await call('PUT', `/copernica/${id}/tracked-views`, {
      views: [{ id: '111', name: 'NL subscribers' }],
    });
    expect(saved.json().data).toEqual([{ id: '111', name: 'NL subscribers' }]);
    expect((await call('GET', `/copernica/${id}/tracked-views`)).json().data).toEqual([
      { id: '111', name: 'NL subscribers' },
    ]);
  });

  it('issues the push credentials once and shows them to admins only', async () => {
    const first = (await call('GET', '/sftp/account')).json().data;
    expect(first).toMatchObject({ username: expect.any(String), password: expect.any(String), port: 2022, path: '/' });
    expect((await call('GET', '/sftp/account')).json().data).toEqual(first);
    const bucket = (await call('GET', '/gcs/bucket')).json().data;
    expect(JSON.parse(bucket.key_json)).toMatchObject({ type: 'service_account', private_key: expect.any(String) });
    const rows = await t.db.db.select().from(pushAccounts).where(eq(pushAccounts.workspaceId, workspaceId));
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.sealed).not.toContain(first.password);

    const member = await signIn(t);
    await addMember(t, workspaceId, member.userId, 'member');
    expect((await call('GET', '/sftp/account', undefined, member)).statusCode).toBe(403);
    expect((await call('GET', '/gcs/bucket', undefined, member)).statusCode).toBe(403);
  });

  it('lets members list but not change; another workspace answers 404', async () => {
    const { id } = (await call('POST', '/copernica', { token: copernicaToken })).json().data;
    const member = await signIn(t);
    await addMember(t, workspaceId, member.userId, 'member');
    expect((await call('GET', '', undefined, member)).json().data).toHaveLength(1);
    expect((await call('DELETE', `/${id}`, undefined, member)).statusCode).toBe(403);
    expect((await call('POST', '/copernica', { token: copernicaToken }, member)).statusCode).toBe(403);
    expect((await call('GET', `/copernica/${id}/databases`, undefined, member)).statusCode).toBe(403);

    const stranger = await signIn(t);
    const foreign = (await createWorkspace(t, { adminUserId: stranger.userId })).id;
    const foreignCall = (path: string, method: 'GET' | 'DELETE' = 'GET') =>
      t.app.inject({ method, url: `/api/workspaces/${foreign}/integrations${path}`, headers: stranger.headers });
    expect((await foreignCall(`/${id}`, 'DELETE')).statusCode).toBe(404);
    expect((await foreignCall(`/copernica/${id}/databases`)).statusCode).toBe(404);
    expect((await call('GET', '', undefined, stranger)).statusCode).toBe(404);
  });

  it('removes the integration with its sealed credentials after the admin confirms', async () => {
    const { id } = (await call('POST', '/iterable', { region: 'US', api_key: iterableApiKey })).json().data;
    expect((await call('DELETE', `/${id}`)).statusCode).toBe(200);
    expect(await storedRow(id)).toBeUndefined();
    expect((await call('DELETE', `/${id}`)).statusCode).toBe(404);
  });

  it.each([
    ['an unknown region', '/iterable', { region: 'ASIA', api_key: 'k' }],
    ['an empty token', '/copernica', { token: '  ' }],
    ['a hostname with a path', '/mailpro', { client_id: 'a', client_secret: 'b', hostname: 'acme.eu/admin' }],
    ['an extra field', '/copernica', { token: 't', api_key: 'k' }],
  ])('answers 400 for %s', async (_label, path, payload) => {
    expect((await call('POST', path, payload)).statusCode).toBe(400);
  });

  it.each([
    ['/mailplus', { consumer_secret: 's' }, 'Please provide a consumer key'],
    ['/mailplus', { consumer_key: 'k', consumer_secret: ' ' }, 'Please provide a consumer secret'],
    ['/iterable', { region: 'EU', api_key: ' ' }, 'Please provide an API key'],
    ['/deployteq', { client_secret: 's' }, 'Client ID is required'],
    ['/deployteq', { client_id: 'c', client_secret: '' }, 'Client secret is required'],
    ['/mailpro', { client_secret: 's', hostname: 'acme.eu' }, 'Please provide a client ID'],
    ['/mailpro', { client_id: 'c', hostname: 'acme.eu' }, 'Please provide a client secret'],
    ['/mailpro', { client_id: 'c', client_secret: 's', hostname: '' }, 'Please provide a hostname'],
  ])('answers the spec message for %s with %j', async (path, payload, message) => {
    const res = await call('POST', path, payload);
    expect([res.statusCode, res.json().error]).toEqual([400, message]);
  });

  it('lists the Mail+ campaigns as the connected units, the consumer secret sealed', async () => {
    const res = await call('POST', '/mailplus', {
      consumer_key: mailplusConsumerKey,
      consumer_secret: mailplusConsumerSecret,
    });
    expect(res.json().data).toMatchObject({
      type: 'mailplus',
      name: 'Mail+',
      units: [
        { id: 'mp-campaign-1', name: 'Welcome journey' },
        { id: 'mp-campaign-2', name: 'Abandoned cart' },
      ],
    });
    const row = await storedRow(res.json().data.id);
    expect(row.credentials).toMatch(/^v1:/);
    expect(row.credentials).not.toContain(mailplusConsumerSecret);
  });
});
