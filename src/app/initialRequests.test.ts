/** @jest-environment ./test/nodeEnvironment.js */
import { meFixture } from '../../test/meFixture';
import { memoryStorage } from '../../test/memoryStorage';
import { reportFixture } from '../../test/reportFixture';
import { json, stubNetwork } from '../../test/stubNetwork';
import { authApi } from '../features/auth/authApi';
import { reportRefOf, reportsApi } from '../features/reports/reportsApi';
import { sessionApi } from '../features/session/sessionApi';
import { api } from '../store/api';
import { setupStore as setupRealStore } from '../store/store';
import { startInitialRequests } from './initialRequests';
import { LAST_MEMBER_KEY } from './signedInHere';

/**
 * The server of these tests holds every answer until all the requests a page start makes have arrived: a request
 * sent only after another's answer would never arrive, and the test would time out.
 */
function heldServer(expected: number) {
  let release: () => void = () => undefined;
  const allArrived = new Promise<void>((resolve) => (release = resolve));
  const network = stubNetwork(async (request) => {
    if (network.calls.length >= expected) release();
    await allArrived;
    const { pathname } = new URL(request.url);
    if (pathname === '/session') return json({ user_id: 1, expires_at: '2026-11-28T20:00:00Z' });
    if (pathname === '/api/me') return json(meFixture());
    if (pathname === '/api/workspaces/3/reports/dashboard/12') return json({ data: reportFixture({ id: 12 }) });
    return json({ error: 'Not Found' }, 404);
  });
  return { network, allArrived };
}

const paths = (calls: Request[]) => calls.map((call) => new URL(call.url).pathname).sort();
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('the first screen’s requests', () => {
  let restore: () => void = () => undefined;
  let stores: ReturnType<typeof setupRealStore>[] = [];
  const setupStore = () => {
    const store = setupRealStore();
    stores.push(store);
    return store;
  };
  afterEach(() => {
    // Also ends the timers that would drop the unused answers a minute later.
    stores.forEach((store) => store.dispatch(api.util.resetApiState()));
    stores = [];
    restore();
  });

  it('asks for the session, the account and the report at once when someone signed in here last time', async () => {
    const { network, allArrived } = heldServer(3);
    restore = network.restore;
    const store = setupStore();
    startInitialRequests(
      store.dispatch,
      '/workspaces/3/reports/dashboard/12',
      memoryStorage({ [LAST_MEMBER_KEY]: '7' }),
    );
    await allArrived;
    expect(paths(network.calls)).toEqual(['/api/me', '/api/workspaces/3/reports/dashboard/12', '/session']);
    await settle();

    // What the app's root and the report page then ask for is already there: nothing is requested again.
    const ref = reportRefOf({ workspaceId: '3', objectType: 'dashboard', objectId: '12' });
    if (!ref) throw new Error('the report page names no report');
    const subscriptions = [
      store.dispatch(sessionApi.endpoints.getSession.initiate()),
      store.dispatch(authApi.endpoints.getMe.initiate()),
      store.dispatch(reportsApi.endpoints.getReport.initiate(ref)),
    ];
    const answers = await Promise.all(subscriptions.map((subscription) => subscription.unwrap()));
    subscriptions.forEach((subscription) => subscription.unsubscribe());
    expect(answers[1]).toMatchObject({ memberId: 7 });
    expect(answers[2]).toMatchObject({ id: 12 });
    expect(network.calls).toHaveLength(3);
  });

  const remembered = { [LAST_MEMBER_KEY]: '7' };
  it.each([
    ['only the session on a public report’s page', '/reports/12', remembered, ['/session']],
    ['no report on an address that names none', '/workspaces/3/reports/chart/x', remembered, ['/api/me', '/session']],
  ])('asks for %s', async (_case, pathname, stored: Record<string, string>, expected) => {
    const { network, allArrived } = heldServer(expected.length);
    restore = network.restore;
    startInitialRequests(setupStore().dispatch, pathname, memoryStorage(stored));
    await allArrived;
    await settle();
    expect(paths(network.calls)).toEqual(expected);
  });

  /**
   * The page's start on a report's address with nobody remembered, against a server that answers at once and whose
   * session is signed in or not (a 401); what it asked for and whether it started the engine.
   */
  function startUnremembered(signedIn: boolean) {
    const network = stubNetwork((request) => {
      const { pathname } = new URL(request.url);
      if (pathname === '/session') {
        return signedIn
          ? json({ user_id: 1, expires_at: '2026-11-28T20:00:00Z' })
          : json({ error: 'Unauthorized' }, 401);
      }
      if (pathname === '/api/me') return json(meFixture());
      if (pathname === '/api/workspaces/3/reports/dashboard/12') return json({ data: reportFixture({ id: 12 }) });
      return json({ error: 'Not Found' }, 404);
    });
    restore = network.restore;
    const started: string[] = [];
    startInitialRequests(setupStore().dispatch, '/workspaces/3/reports/dashboard/12', memoryStorage({}), () =>
      started.push('engine'),
    );
    return { network, started };
  }

  it('asks for the account and the report once the session says someone is signed in, when nobody is remembered', async () => {
    const { network, started } = startUnremembered(true);
    // Nothing but the session until its answer.
    expect(started).toEqual([]);
    await settle();
    expect(paths(network.calls)).toEqual(['/api/me', '/api/workspaces/3/reports/dashboard/12', '/session']);
    // The engine starts with them, once a visitor who may see the page is known.
    expect(started).toHaveLength(1);
  });

  it('asks for nothing more, and starts no engine, when the session says nobody is signed in', async () => {
    const { network, started } = startUnremembered(false);
    await settle();
    expect(paths(network.calls)).toEqual(['/session']);
    expect(started).toEqual([]);
  });

  it('asks for the account and the report at once, and starts the engine, when the server’s signed-in hint is there', async () => {
    const { network, allArrived } = heldServer(3);
    restore = network.restore;
    const started: string[] = [];
    startInitialRequests(
      setupStore().dispatch,
      '/workspaces/3/reports/dashboard/12',
      memoryStorage({}),
      () => started.push('engine'),
      'theme=dark; openrate_signed_in=1',
    );
    expect(started).toEqual(['engine']);
    await allArrived;
    expect(paths(network.calls)).toEqual(['/api/me', '/api/workspaces/3/reports/dashboard/12', '/session']);
  });

  it('starts the engine at once when someone is remembered, and on a public page', () => {
    restore = stubNetwork(() => json({ error: 'Not Found' }, 404)).restore;
    const started: string[] = [];
    startInitialRequests(setupStore().dispatch, '/workspaces/3/reports/dashboard/12', memoryStorage(remembered), () =>
      started.push('member'),
    );
    startInitialRequests(setupStore().dispatch, '/reports/12', memoryStorage({}), () => started.push('public'));
    expect(started).toEqual(['member', 'public']);
  });

  it("asks for the schemas of a dashboard's datasets once its report has arrived, not a target card's", async () => {
    const widget = (id: string, type: string, dataset?: string) => ({ id, type, ...(dataset ? { dataset } : {}) });
    const widgets = [
      widget('a', 'graph', 'campaign_metrics_by_event_date'),
      widget('b', 'table', 'campaign_metrics_by_event_date'),
      widget('c', 'subscriber_growth'),
      widget('d', 'target', 'campaign_metrics_by_send_date'),
      widget('e', 'rich_text'),
    ];
    const network = stubNetwork((request) => {
      const { pathname } = new URL(request.url);
      if (pathname === '/session') return json({ user_id: 1, expires_at: '2026-11-28T20:00:00Z' });
      if (pathname === '/api/me') return json(meFixture());
      if (pathname === '/api/workspaces/3/reports/dashboard/12') {
        return json({ data: reportFixture({ id: 12, config: { title: 'Report', widgets } as never }) });
      }
      if (pathname === '/api/workspaces/3/reports/explorer_view/13') {
        return json({ data: reportFixture({ id: 13, type: 'explorer_view', config: { dataset: 'campaigns' } }) });
      }
      return json({ error: 'Not Found' }, 404);
    });
    restore = network.restore;
    startInitialRequests(setupStore().dispatch, '/workspaces/3/reports/dashboard/12', memoryStorage(remembered));
    startInitialRequests(setupStore().dispatch, '/workspaces/3/reports/explorer_view/13', memoryStorage(remembered));
    // The schemas' requests come from a chunk loaded once the report is here.
    const schemaCalls = () => network.calls.filter((call) => call.url.includes('/datasets/'));
    for (let waited = 0; schemaCalls().length < 2 && waited < 5_000; waited += 20) await settle();
    await settle();
    expect(paths(network.calls).filter((path) => path.includes('/datasets/'))).toEqual([
      '/api/workspaces/3/datasets/campaign_metrics_by_event_date',
      '/api/workspaces/3/datasets/list_members',
    ]);
    expect(
      network.calls.filter((call) => call.url.includes('/datasets/')).map((call) => new URL(call.url).search),
    ).toEqual(['?schema=true', '?schema=true']);
  });
});
