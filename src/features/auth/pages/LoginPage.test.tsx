import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { setupStore } from '../../../store/store';
import { authApi } from '../authApi';
import { LoginPage } from './LoginPage';

/** The welcome page with the server's answer to GET /api/login/options already in the cache. */
async function renderWithOptions(google: boolean) {
  const store = setupStore();
  await store.dispatch(authApi.util.upsertQueryData('getLoginOptions', undefined, { google }));
  renderWithProviders(<LoginPage />, { store, route: '/login' });
}

describe('welcome page sign-in options (spec 1 §1)', () => {
  it('offers Google when the server has it configured', async () => {
    await renderWithOptions(true);
    expect(screen.getByRole('link', { name: 'Continue with Email' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with Google' }).getAttribute('href')).toBe('/api/login/google');
  });

  it('offers only e-mail when the server has no Google sign-in', async () => {
    await renderWithOptions(false);
    expect(screen.getByRole('link', { name: 'Continue with Email' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).toBeNull();
  });
});
