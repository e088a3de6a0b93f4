/** @jest-environment node */
import { meFixture } from '../../../test/meFixture';
import { setupStore } from '../../store/store';
import { authApi } from '../auth/authApi';
import { selectWorkspaceLocale, selectWorkspaceOfMe } from './useCurrentWorkspace';

describe('the current workspace, read from the signed-in user', () => {
  let store = setupStore();
  // An unused answer stays cached on a timer that would outlive the test.
  afterEach(() => store.dispatch(authApi.util.resetApiState()));

  async function signedIn() {
    store = setupStore();
    const shop = meFixture().workspaces[0];
    const me = meFixture({ workspaces: [shop, { ...shop, id: 5, name: 'Outlet', locale: 'nl_NL' }] });
    await store.dispatch(authApi.util.upsertQueryData('getMe', undefined, me));
    return store;
  }

  it('is the workspace the URL names, with its locale as Intl writes it', async () => {
    const state = (await signedIn()).getState();
    expect(selectWorkspaceOfMe(state, 5)?.name).toBe('Outlet');
    expect(selectWorkspaceLocale(state, 5)).toBe('nl-NL');
    expect(selectWorkspaceLocale(state, 3)).toBe('en-GB');
    // The same answer gives the same object, so components reading it do not re-render.
    expect(selectWorkspaceOfMe(state, 5)).toBe(selectWorkspaceOfMe(state, 5));
  });

  it('is none for a workspace that is not the user’s, or before the user is known', async () => {
    expect(selectWorkspaceOfMe((await signedIn()).getState(), 9)).toBeUndefined();
    expect(selectWorkspaceLocale(setupStore().getState(), 3)).toBeUndefined();
  });
});
