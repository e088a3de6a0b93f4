// The sign-in and onboarding pages but /login (a chunk of its own), loaded together in one chunk.
export { CheckEmailPage } from '../features/auth/pages/CheckEmailPage';
export { LoginEmailPage } from '../features/auth/pages/LoginEmailPage';
export { LoginErrorPage, RegistrationErrorPage } from '../features/auth/pages/LoginErrorPage';
export { MfaPage } from '../features/auth/pages/MfaPage';
export { OnboardingPage } from '../features/onboarding/OnboardingPage';
export { SignupPage } from '../features/onboarding/SignupPage';
