import { generateKeyPairSync } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { INTEGRATION_ERRORS } from '../../src/contracts/integrations';
import { MARKET_CODES } from '../../src/contracts/markets';
import { simulatorServiceAccount } from '../integrations/simulator';
import { addMember, adminWithWorkspace, createWorkspace, signIn, type SignedIn } from '../testing/fixtures';
import { withSimulatedApp } from '../testing/simulatedApp';
import { withTestApp } from '../testing/testApp';

describe('Google Analytics integration against the provider simulator', () => {
  const { t } = withSimulatedApp();

  let admin: SignedIn;
  let workspaceId: number;
  beforeEach(async () => {
    ({ admin, workspaceId } = await adminWithWorkspace(t));
  });

  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    payload?: object,
    who = admin,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url: `/api/workspaces/${workspaceId}/integrations${path}`,
      headers: { ...who.headers, ...headers },
      payload,
    });
  /** Runs `run` with another service account configured (undefined: none at all). */
  const withServiceAccount = async (account: string | undefined, run: () => Promise<void>) => {
    const configured = t.config.GOOGLE_ANALYTICS_SERVICE_ACCOUNT;
    t.config.GOOGLE_ANALYTICS_SERVICE_ACCOUNT = account;
    try {
      await run();
    } finally {
      t.config.GOOGLE_ANALYTICS_SERVICE_ACCOUNT = configured;
    }
  };

  it('enables GA inactive, lists every granted property across pages, adds one with a market and removes it', async () => {
    const enabled = await call('POST', '/google-analytics');
    expect(enabled.statusCode).toBe(201);
    const { id } = enabled.json().data;
    expect((await call('GET', '')).json().data).toEqual([
      { id, type: 'google_analytics', name: 'Google Analytics', units: [] },
    ]);
    expect((await call('POST', '/google-analytics')).json().data.id).toBe(id);

    const available = await call('GET', '/google-analytics/available');
    expect(available.statusCode).toBe(200);
    expect(available.json()).toEqual({
      data: [
        {
          id: '250001',
          name: 'Acme Shop NL',
          account_name: 'Acme Shop GA',
          propertyName: 'Acme Shop NL',
          viewName: 'Acme Shop NL',
        },
        {
          id: '250002',
          name: 'Acme Shop UK',
          account_name: 'Acme Shop GA',
          propertyName: 'Acme Shop UK',
          viewName: 'Acme Shop UK',
        },
        {
          id: '260001',
          name: 'Acme Outlet',
          account_name: 'Acme Brands',
          propertyName: 'Acme Outlet',
          viewName: 'Acme Outlet',
        },
      ],
      accounts: 2,
      connection: { type: 'service_account', account: simulatorServiceAccount('granted').client_email },
    });

    const added = await call('POST', '/google-analytics/properties', { property_id: '250002', market: 'UK' });
    expect(added.statusCode).toBe(201);
    expect(added.json().data.units).toEqual([
      { id: '250002', name: 'Acme Shop UK', account_name: 'Acme Shop GA', market: 'UK' },
    ]);
    const withoutMarket = await call('POST', '/google-analytics/properties', { property_id: '260001' });
    expect(withoutMarket.json().data.units[1]).toEqual({
      id: '260001',
      name: 'Acme Outlet',
      account_name: 'Acme Brands',
      market: null,
    });
    const [listed] = (await call('GET', '')).json().data;
    expect(listed.units.map((unit: { id: string }) => unit.id)).toEqual(['250002', '260001']);
    expect(
      (await call('GET', '/google-analytics/available')).json().data.map((view: { id: string }) => view.id),
    ).toEqual(['250001']);

    const removed = await call('DELETE', '/google-analytics/properties/250002');
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.units.map((unit: { id: string }) => unit.id)).toEqual(['260001']);
    expect((await call('DELETE', '/google-analytics/properties/250002')).statusCode).toBe(404);
  });

  it('adds a property once for a repeated Idempotency-Key, and a second add only changes its market', async () => {
    await call('POST', '/google-analytics');
    const key = { 'Idempotency-Key': 'ga-add-property-0001' };
    const first = await call(
      'POST',
      '/google-analytics/properties',
      { property_id: '250001', market: 'NL' },
      admin,
      key,
    );
    const repeat = await call(
      'POST',
      '/google-analytics/properties',
      { property_id: '250001', market: 'NL' },
      admin,
      key,
    );
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json()).toEqual(first.json());
    const again = await call('POST', '/google-analytics/properties', { property_id: '250001', market: 'BE' });
    expect(again.json().data.units).toEqual([
      { id: '250001', name: 'Acme Shop NL', account_name: 'Acme Shop GA', market: 'BE' },
    ]);
  });

  it('refuses a property the service account cannot read, and bad input, with 400', async () => {
    await call('POST', '/google-analytics');
    const foreign = await call('POST', '/google-analytics/properties', { property_id: '999999', market: 'NL' });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error).toBe(INTEGRATION_ERRORS.gaNoAccess);
    for (const body of [
      { property_id: '250001', market: 'XX' },
      { market: 'NL' },
      { property_id: 'abc' },
      { property_id: '250001', view: 1 },
    ]) {
      expect((await call('POST', '/google-analytics/properties', body)).statusCode).toBe(400);
    }
    expect((await call('GET', '')).json().data[0].units).toEqual([]);
  });

  it('answers the spec message when GA refuses the service account, and an empty list when nothing was granted', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const stranger = JSON.stringify({
      client_email: 'stranger@elsewhere.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
    for (const account of [stranger, undefined, '{"client_email":"x@y","private_key":"not a key"}']) {
      await withServiceAccount(account, async () => {
        const refused = await call('POST', '/google-analytics');
        expect(refused.statusCode).toBe(400);
        expect(refused.json().error).toBe(INTEGRATION_ERRORS.googleAnalytics);
      });
    }
    expect((await call('GET', '')).json().data).toEqual([]);

    await withServiceAccount(JSON.stringify(simulatorServiceAccount('empty')), async () => {
      expect((await call('POST', '/google-analytics')).statusCode).toBe(201);
      const available = (await call('GET', '/google-analytics/available')).json();
      expect(available).toMatchObject({ data: [], accounts: 0 });
    });
  });

  it('is for admins of the workspace: members get 403, another workspace 404', async () => {
    await call('POST', '/google-analytics');
    const member = await signIn(t);
    await addMember(t, workspaceId, member.userId, 'member');
    expect((await call('GET', '/google-analytics/available', undefined, member)).statusCode).toBe(403);
    expect((await call('POST', '/google-analytics/properties', { property_id: '250001' }, member)).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', '/google-analytics/properties/250001', undefined, member)).statusCode).toBe(403);
    expect((await call('POST', '/google-analytics', undefined, member)).statusCode).toBe(403);

    const stranger = await signIn(t);
    expect((await call('GET', '/google-analytics/available', undefined, stranger)).statusCode).toBe(404);
    const foreign = (await createWorkspace(t, { adminUserId: stranger.userId })).id;
    const foreignCall = await t.app.inject({
      method: 'POST',
      url: `/api/workspaces/${foreign}/integrations/google-analytics/properties`,
      headers: stranger.headers,
      payload: { property_id: '250001' },
    });
    // Their workspace has no GA integration: ours is not reachable from it.
    expect(foreignCall.statusCode).toBe(404);
  });
});

describe('market flags', () => {
  const t = withTestApp();

  const flag = (file: string) => t.app.inject({ method: 'GET', url: `/img/markets/${file}` });
  /** The RGB of the flag's pixel (x, y): the PNG is unfiltered 8-bit RGB in one IDAT chunk. */
  const pixel = (png: Buffer, x: number, y: number) => {
    const width = png.readUInt32BE(16);
    const rows = inflateSync(png.subarray(41, 41 + png.readUInt32BE(33)));
    const at = y * (1 + width * 3) + 1 + x * 3;
    return rows.subarray(at, at + 3).toString('hex');
  };

  it('serves a PNG flag for every market the picker offers, the GB flag for UK', async () => {
    for (const code of MARKET_CODES) {
      const res = await flag(`${code}.png`);
      expect([code, res.statusCode, res.headers['content-type']]).toEqual([code, 200, 'image/png']);
      expect(res.rawPayload.subarray(1, 4).toString()).toBe('PNG');
      expect([res.rawPayload.readUInt32BE(16), res.rawPayload.readUInt32BE(20)]).toEqual([48, 32]);
    }
    const uk = (await flag('UK.png')).rawPayload;
    expect(uk.equals((await flag('GB.png')).rawPayload)).toBe(true);
    // The Union Jack's red cross in the middle, blue in its corner; the Dutch flag red on top and blue below.
    expect(pixel(uk, 24, 16)).toBe('c8102e');
    expect(pixel(uk, 14, 3)).toBe('012169');
    const nl = (await flag('NL.png')).rawPayload;
    expect([pixel(nl, 10, 2), pixel(nl, 10, 29)]).toEqual(['ae1c28', '21468b']);
  });

  it('answers 404 for a code the picker does not offer', async () => {
    for (const file of ['XX.png', 'nl.png', 'NL.gif', '..%2FNL.png']) expect((await flag(file)).statusCode).toBe(404);
  });
});
