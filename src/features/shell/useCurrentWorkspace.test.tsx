import { screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { meFixture } from '../../../test/meFixture';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { setupStore } from '../../store/store';
import { authApi } from '../auth/authApi';
import {
  selectWorkspaceLocale,
  selectWorkspaceOfMe,
  useCurrentWorkspace,
  workspaceIdFromUrl,
} from './useCurrentWorkspace';

/** Shows what a page's error boundary would: the error's message. */
class Boundary extends Component<{ children: ReactNode }, { message: string | null }> {
  override state = { message: null };
  static getDerivedStateFromError(error: Error) {
    return { message: error.message };
  }
  override render() {
    return this.state.message ? <p role="alert">{this.state.message}</p> : this.props.children;
  }
}

function WorkspaceName() {
  return <span>{useCurrentWorkspace().name}</span>;
}

describe('the workspace id of the URL (spec 1 §8 Missing workspace id)', () => {
  it('is the number the URL names', () => {
    expect(workspaceIdFromUrl('42')).toBe(42);
  });

  it.each([['abc'], ['0'], ['-3'], ['1.5'], ['99999999999']])('refuses %p as an invalid workspace id', (param) => {
    expect(() => workspaceIdFromUrl(param)).toThrow(new Error('Invalid workspace id'));
  });

  it('a page outside a workspace route says the workspace id was not found in the URL', () => {
    jest.spyOn(console, 'error').mockImplementation(() => {});
    renderWithProviders(
      <Routes>
        <Route
          path="/reports"
          element={
            <Boundary>
              <WorkspaceName />
            </Boundary>
          }
        />
      </Routes>,
      { route: '/reports' },
    );
    expect(screen.getByRole('alert').textContent).toBe('workspaceId was not found in url.');
  });
});

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
