/** @jest-environment ./test/nodeEnvironment.js */
import { meFixture } from '../../../test/meFixture';
import { setupStore } from '../../store/store';
import { firstDayOfWeekChanged } from '../prefs/prefsSlice';
import { followAccount } from './accountListeners';
import { authApi } from './authApi';

const workspaceOf = (id: number) => meFixture({}, { id }).workspaces[0];

describe('the signed-in account, followed by the slices', () => {
  let stop: () => void = () => undefined;
  afterEach(() => stop());

  function signedIn(preloaded: Parameters<typeof setupStore>[0] = {}) {
    const store = setupStore(preloaded);
    stop = followAccount();
    const answer = (me: ReturnType<typeof meFixture>) =>
      store.dispatch(authApi.util.upsertQueryData('getMe', undefined, me));
    return { store, answer };
  }

  it("keeps the remembered workspace while it is one of the user's, else takes the first one", async () => {
    const { store, answer } = signedIn({ workspaces: { currentWorkspaceId: 5, activationRequested: [] } });
    await answer(meFixture({ workspaces: [workspaceOf(3), workspaceOf(5)] }));
    expect(store.getState().workspaces.currentWorkspaceId).toBe(5);
    await answer(meFixture({ workspaces: [workspaceOf(3)] }));
    expect(store.getState().workspaces.currentWorkspaceId).toBe(3);
    await answer(meFixture({ workspaces: [] }));
    expect(store.getState().workspaces.currentWorkspaceId).toBeNull();
  });

  it("takes the account's first day of week over this browser's", async () => {
    const { store, answer } = signedIn();
    store.dispatch(firstDayOfWeekChanged(3));
    await answer(meFixture({ firstDayOfWeek: 0 }));
    expect(store.getState().prefs.firstDayOfWeek).toBe(0);
  });

  it('leaves local choices alone when a poll answers the same account', async () => {
    const { store, answer } = signedIn();
    await answer(meFixture({ firstDayOfWeek: 0 }));
    // Chosen in this browser while the save to the account is under way.
    store.dispatch(firstDayOfWeekChanged(3));
    await answer(meFixture({ firstDayOfWeek: 0 }));
    expect(store.getState().prefs.firstDayOfWeek).toBe(3);
  });
});
