import { isPublicReportPath, queriesEngineAt } from './enginePaths';

describe('the addresses whose screens query the engine', () => {
  it.each([
    '/workspaces/3',
    '/workspaces/3/',
    '/workspaces/3/reports',
    '/workspaces/3/reports/dashboard/12',
    '/workspaces/3/reports/explorer/7/',
    '/workspaces/3/alerting',
    '/workspaces/3/alerting/5',
    '/workspaces/3/engagement',
    '/workspaces/3/engagement/2/2026-11-30',
    '/workspaces/3/targets',
    '/reports/ab12cd',
  ])('%s queries it', (pathname) => {
    expect(queriesEngineAt(pathname)).toBe(true);
  });

  it.each([
    '/',
    '/login',
    '/login/email/x',
    '/onboarding',
    '/changes',
    '/reports',
    '/reports/ab12cd/extra',
    '/workspaces',
    '/workspaces/3/settings/general',
    '/workspaces/3/settings/integrations/mailchimp',
    '/workspaces/3/datasets/campaigns/4/webview',
    '/workspaces/3/reportsx',
  ])('%s does not', (pathname) => {
    expect(queriesEngineAt(pathname)).toBe(false);
  });

  it('tells a public report from a workspace’s', () => {
    expect(isPublicReportPath('/reports/ab12cd')).toBe(true);
    expect(isPublicReportPath('/workspaces/3/reports/dashboard/12')).toBe(false);
  });
});
