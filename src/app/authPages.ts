// The sign-in and onboarding pages, loaded together in one chunk.
export { CheckEmailPage } from '../features/auth/pages/CheckEmailPage';
export { LoginEmailPage } from '../features/auth/pages/LoginEmailPage';
export { LoginErrorPage, RegistrationErrorPage } from '../features/auth/pages/LoginErrorPage';
export { LoginPage } from '../features/auth/pages/LoginPage';
export { MfaPage } from '../features/auth/pages/MfaPage';
export { OnboardingPage } from '../features/onboarding/OnboardingPage';
export { SignupPage } from '../features/onboarding/SignupPage';
