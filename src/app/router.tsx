import { Spinner } from '@blueprintjs/core';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { AppRoot } from './AppRoot';
import { queriesEngineAt } from './enginePaths';
import { registerIcons } from './icons';
import { ChangesPage, ErrorPage, NoWorkspacesPage, ServerNavigation } from './pages/InfoPages';
import { NotFoundPage } from './pages/NotFoundPage';
import { RouteErrorPage } from './pages/RouteErrorPage';

/** Blueprint's rules for the components the first screens do not draw (scripts/blueprintCss.ts). */
// Unnamed: the chunk its style sheet goes to is named by webpack.config.ts (blueprintLater), which places it.
const blueprintLater = () => import('./blueprintLater');
/** A lazily loaded page's module, resolved once Blueprint's later rules apply too, so the page never draws unstyled. */
const styled =
  <M,>(load: () => Promise<M>) =>
  () =>
    Promise.all([load(), blueprintLater()]).then(([module]) => module);

const authPages = styled(() => import(/* webpackChunkName: "auth" */ './authPages'));
const workspaceShell = styled(() => import(/* webpackChunkName: "workspace" */ './workspaceShell'));
const settingsPages = styled(() => import(/* webpackChunkName: "settings" */ './settingsPages'));
const reportPages = styled(() => import(/* webpackChunkName: "reports" */ './reportPages'));
const engagementPage = styled(
  () => import(/* webpackChunkName: "engagement" */ '../features/engagement/EngagementPage'),
);
const alertingPages = styled(() => import(/* webpackChunkName: "alerting" */ './alertingPages'));
const homePage = styled(() => import(/* webpackChunkName: "home" */ './pages/HomePage'));
const publicReportPage = styled(
  () => import(/* webpackChunkName: "public-report" */ '../features/public-report/PublicReportPage'),
);

let engineClient: Promise<{ startEngine(afterKeptAnswers?: boolean): void }> | undefined;
let engineStarted = false;

/** The engine's client code (not DuckDB's module), asked for once; asked again after a failed download. */
function loadEngineClient() {
  engineClient ??= import(/* webpackChunkName: "engine-client" */ '../workers/engineClient');
  engineClient.catch(() => {
    engineClient = undefined;
  });
  return engineClient;
}

/** Whether the screens at an address query the engine, in a browser that has workers (test DOMs have none). */
const startsEngineAt = (pathname: string) => typeof Worker !== 'undefined' && queriesEngineAt(pathname);

/**
 * Downloads the engine's client code when `pathname` is a screen that queries the engine, as the page starts and
 * before anyone knows whether the visitor is signed in: a few KiB, so the engine can start as soon as the session's
 * answer says so instead of a round trip later. (DuckDB's module is already compiling, or its compiling worker
 * waiting, see compileAhead.ts.)
 */
export function prepareEngineFor(pathname: string): void {
  if (startsEngineAt(pathname)) loadEngineClient().catch(() => undefined);
}

/**
 * Starts the query engine when `pathname` is a screen that queries it: as the page opens on one (once the visitor
 * may see it, src/app/initialRequests.ts) and as a navigation into one begins. The .wasm then downloads and compiles
 * while the route's chunks, the report and its datasets are on the way, never after them.
 * With `afterKeptAnswers`, its workers start once the kept answers of an earlier visit are drawn (engineClient.ts).
 */
export function startEngineFor(pathname: string, afterKeptAnswers = false): void {
  if (engineStarted || !startsEngineAt(pathname)) return;
  engineStarted = true;
  loadEngineClient()
    .then(({ startEngine }) => startEngine(afterKeptAnswers))
    .catch(() => {
      engineStarted = false;
    });
}

/** A route whose guard (src/app/guards.ts) always redirects before it renders. */
const redirectOnly = (path: string): RouteObject =>
  path === '' ? { index: true, element: null } : { path, element: null };

/**
 * Every route of the product (spec 1 §2.1, §2.2); AppRoot applies the guards and redirects. Those whose screens query
 * the engine are named by address in enginePaths.ts.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppRoot />,
    errorElement: <RouteErrorPage />,
    // Shown while the first route's lazily loaded chunk arrives.
    hydrateFallbackElement: <Spinner className="or-page-spinner" />,
    children: [
      redirectOnly(''),
      ...['dashboard', 'reports', 'explorer', 'alerting', 'profile'].map(redirectOnly),
      {
        path: 'status',
        lazy: () => homePage().then(({ HomePage }) => ({ Component: HomePage })),
      },
      {
        path: 'login',
        // A chunk of its own: the other sign-in pages' forms, pickers and popovers (~27 KiB gz) stay off /login.
        lazy: () =>
          import(/* webpackChunkName: "login" */ '../features/auth/pages/LoginPage').then(({ LoginPage }) => ({
            Component: LoginPage,
          })),
      },
      { path: 'login/error', lazy: () => authPages().then((m) => ({ Component: m.LoginErrorPage })) },
      { path: 'login/email', lazy: () => authPages().then((m) => ({ Component: m.LoginEmailPage })) },
      { path: 'login/email/:token', lazy: () => authPages().then((m) => ({ Component: m.CheckEmailPage })) },
      { path: 'login/mfa', lazy: () => authPages().then((m) => ({ Component: m.MfaPage })) },
      { path: 'registration-error', lazy: () => authPages().then((m) => ({ Component: m.RegistrationErrorPage })) },
      { path: 'onboarding', lazy: () => authPages().then((m) => ({ Component: m.OnboardingPage })) },
      { path: 'welcome', lazy: () => authPages().then((m) => ({ Component: m.SignupPage })) },
      { path: 'error', element: <ErrorPage /> },
      { path: 'logout', element: <ServerNavigation /> },
      { path: 'impersonate/exit', element: <ServerNavigation /> },
      { path: 'info/no-workspaces', element: <NoWorkspacesPage /> },
      { path: 'changes', element: <ChangesPage /> },
      {
        path: 'reports/:reportId',
        lazy: () => publicReportPage().then(({ PublicReportPage }) => ({ Component: PublicReportPage })),
      },
      {
        path: 'workspaces/:workspaceId',
        lazy: () =>
          workspaceShell().then(async ({ WorkspaceLayout, shellIcons }) => {
            await registerIcons(shellIcons);
            return { Component: WorkspaceLayout };
          }),
        children: [
          {
            lazy: () => reportPages().then((m) => ({ Component: m.ReportsLayout })),
            children: [
              { index: true, lazy: () => reportPages().then((m) => ({ Component: m.ReportsHomePage })) },
              { path: 'reports', lazy: () => reportPages().then((m) => ({ Component: m.ReportsHomePage })) },
              {
                path: 'reports/:objectType/:objectId',
                lazy: () => reportPages().then((m) => ({ Component: m.ReportPage })),
              },
            ],
          },
          // The drawer's filter pickers and its preview read the rule's dataset through the engine (enginePaths.ts).
          ...['alerting', 'alerting/:alertId'].map((path) => ({
            path,
            lazy: () => alertingPages().then((m) => ({ Component: m.AlertingPage })),
          })),
          ...['engagement', 'engagement/:integrationId/:date'].map((path) => ({
            path,
            lazy: () => engagementPage().then((m) => ({ Component: m.EngagementPage })),
          })),
          {
            path: 'targets',
            lazy: () => reportPages().then((m) => ({ Component: m.TargetsPage })),
          },
          ...['reporting/dashboard', 'dashboard', 'dashboard/*', 'explorer', 'explorer/*', 'engaged'].map(redirectOnly),
          {
            path: 'datasets/campaigns/:campaignId/webview',
            lazy: () => settingsPages().then((m) => ({ Component: m.CampaignWebviewPage })),
          },
          {
            path: 'settings',
            lazy: () => settingsPages().then((m) => ({ Component: m.SettingsLayout })),
            children: [
              redirectOnly(''),
              { path: 'profile', lazy: () => settingsPages().then((m) => ({ Component: m.ProfilePage })) },
              { path: 'general', lazy: () => settingsPages().then((m) => ({ Component: m.GeneralPage })) },
              { path: 'members', lazy: () => settingsPages().then((m) => ({ Component: m.MembersPage })) },
              { path: 'integrations', lazy: () => settingsPages().then((m) => ({ Component: m.IntegrationsPage })) },
              {
                path: 'integrations/:integrationType',
                lazy: () => settingsPages().then((m) => ({ Component: m.IntegrationDetailPage })),
              },
              { path: 'agency', lazy: () => settingsPages().then((m) => ({ Component: m.AgencyPage })) },
              {
                path: 'admin/workspaces',
                lazy: () => settingsPages().then((m) => ({ Component: m.AdminWorkspacesPage })),
              },
              ...['data-model', 'data-model/tables/:tableId', 'data-model/tables/:tableId/fields/:fieldId'].map(
                (path) => ({
                  path,
                  lazy: () => settingsPages().then((m) => ({ Component: m.DataModelPage })),
                }),
              ),
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  router.subscribe(({ navigation }) => {
    if (navigation.location) startEngineFor(navigation.location.pathname);
  });
  return router;
}
