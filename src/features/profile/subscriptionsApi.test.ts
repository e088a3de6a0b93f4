/** @jest-environment ./test/nodeEnvironment.js */
import { json, stubNetwork } from '../../../test/stubNetwork';
import { setupStore } from '../../store/store';
import { subscriptionsApi } from './subscriptionsApi';

const subscription = (id: number, workspaceId: number) => ({
  id,
  memberId: 7,
  payload: { type: 'weeklySummary' as const, workspaceId },
});

/** Resolves when `release` is called: lets a test look at the store while a call is still open. */
function gate() {
  let release: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { opened, release };
}

async function storeWith(handler: Parameters<typeof stubNetwork>[0]) {
  const network = stubNetwork(handler);
  const store = setupStore();
  await store.dispatch(subscriptionsApi.endpoints.getSubscriptions.initiate());
  const list = () => subscriptionsApi.endpoints.getSubscriptions.select()(store.getState()).data ?? [];
  return { store, list, network };
}

describe('weekly summary toggle (optimistic, spec 1 §4)', () => {
  let restore: () => void = () => undefined;
  afterEach(() => restore());

  it('shows the subscription at once and keeps the server’s one on success', async () => {
    const wait = gate();
    const { store, list, network } = await storeWith(async (request) => {
      if (request.method === 'GET') return json({ data: [subscription(1, 10)] });
      await wait.opened;
      return json({ data: subscription(5, 20) }, 201);
    });
    restore = network.restore;
    const pending = store.dispatch(
      subscriptionsApi.endpoints.subscribeWeeklySummary.initiate({ workspaceId: 20, memberId: 7 }),
    );
    expect(list().map((item) => item.payload.workspaceId)).toEqual([10, 20]);
    wait.release();
    await pending;
    expect(list()).toEqual([subscription(1, 10), subscription(5, 20)]);
  });

  it('rolls a failed switch-on back', async () => {
    const wait = gate();
    const { store, list, network } = await storeWith(async (request) => {
      if (request.method === 'GET') return json({ data: [] });
      await wait.opened;
      return json({ error: 'Not found' }, 404);
    });
    restore = network.restore;
    const pending = store.dispatch(
      subscriptionsApi.endpoints.subscribeWeeklySummary.initiate({ workspaceId: 20, memberId: 7 }),
    );
    expect(list()).toHaveLength(1);
    wait.release();
    const result = await pending;
    expect('error' in result).toBe(true);
    expect(list()).toEqual([]);
  });

  it('rolls a failed switch-off back, without retrying the 403', async () => {
    const { store, list, network } = await storeWith((request) =>
      request.method === 'GET' ? json({ data: [subscription(3, 30)] }) : json({ error: 'Forbidden' }, 403),
    );
    restore = network.restore;
    await store.dispatch(subscriptionsApi.endpoints.unsubscribeWeeklySummary.initiate({ id: 3 }));
    expect(list()).toEqual([subscription(3, 30)]);
    expect(network.calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });
});
