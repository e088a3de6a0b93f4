import { screen } from '@testing-library/react';
import { renderWithProviders } from '../../../../test/renderWithProviders';
import { LoginErrorPage, RegistrationErrorPage } from './LoginErrorPage';

describe('sign-in and registration error pages (spec 1 §8)', () => {
  it('shows the sign-in failure its `error` parameter names, and the unknown one without it', () => {
    const { unmount } = renderWithProviders(<LoginErrorPage />, { route: '/login/error?error=invalid_device' });
    expect(screen.getByRole('heading', { name: 'Sign-in failed' })).toBeTruthy();
    expect(screen.getByText('This link can only be used on the original browser or device.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/login');
    unmount();
    renderWithProviders(<LoginErrorPage />, { route: '/login/error' });
    expect(screen.getByText('An unexpected error occurred. Please try again.')).toBeTruthy();
  });

  it('shows the registration failure its `reason` parameter names', () => {
    renderWithProviders(<RegistrationErrorPage />, { route: '/registration-error?reason=token_already_used' });
    expect(screen.getByRole('heading', { name: 'Oops, something went wrong!' })).toBeTruthy();
    expect(screen.getByText('The registration link has already been used.')).toBeTruthy();
  });
});
