/** @jest-environment ./test/jsdomFetchEnvironment.js */
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { meFixture } from '../../../test/meFixture';
import { renderWithProviders } from '../../../test/renderWithProviders';
import { json, stubNetwork } from '../../../test/stubNetwork';
import { IMPERSONATION_READ_ONLY, type Me } from '../../contracts/me';
import { setupStore } from '../../store/store';
import { authApi } from '../auth/authApi';
import { ProfilePage } from './ProfilePage';

const me: Me = meFixture();

let network: ReturnType<typeof stubNetwork>;
afterEach(() => network.restore());

async function renderProfile(user: Me) {
  network = stubNetwork(() => json({ data: [] }));
  const store = setupStore();
  await store.dispatch(authApi.util.upsertQueryData('getMe', undefined, user));
  renderWithProviders(
    <Routes>
      <Route path="/workspaces/:workspaceId/settings/profile" element={<ProfilePage />} />
    </Routes>,
    { store, route: '/workspaces/3/settings/profile' },
  );
}

describe('ProfilePage', () => {
  it("offers no change to the account's name, week start, subscriptions or 2FA to staff acting as the user", async () => {
    await renderProfile({ ...me, impersonatedBy: { id: 1, email: 'staff@openrate.app' } });
    expect(screen.getByText(IMPERSONATION_READ_ONLY)).toBeTruthy();
    expect((screen.getByLabelText('Name') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('First day of week') as HTMLSelectElement).disabled).toBe(true);
    expect((screen.getByLabelText('Weekly summary: Shop') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Two-factor authentication') as HTMLInputElement).disabled).toBe(true);
  });

  it('lets the account holder change them', async () => {
    await renderProfile(me);
    expect(screen.queryByText(IMPERSONATION_READ_ONLY)).toBeNull();
    expect((screen.getByLabelText('Name') as HTMLInputElement).disabled).toBe(false);
    expect((screen.getByLabelText('Weekly summary: Shop') as HTMLInputElement).disabled).toBe(false);
  });
});
