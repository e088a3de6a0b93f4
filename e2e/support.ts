import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Helpers shared by the specs: signing in through the development outbox and onboarding. */

export const API_HEADERS = { 'X-Requested-With': 'openrate' };

export const uniqueEmail = (prefix: string) =>
  `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** The newest sign-in code the development outbox holds for an address. */
export async function latestCode(request: APIRequestContext, email: string): Promise<string> {
  let code: string | null = null;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
      const body = (await response.json()) as { data: { code: string | null; subject: string }[] };
      code = body.data.find((message) => message.code)?.code ?? null;
      return code;
    })
    .not.toBeNull();
  return code as unknown as string;
}

/** The path of the newest invitation link the development outbox holds for an address. */
export async function latestInvitationPath(request: APIRequestContext, email: string): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
      const body = (await response.json()) as { data: { link: string | null }[] };
      link = body.data.find((message) => message.link?.includes('/api/invitations/'))?.link ?? null;
      return link;
    })
    .not.toBeNull();
  return new URL(link as unknown as string).pathname;
}

/** Signs in through the e-mail flow with the code typed by hand, as a user without the mail link would. */
export async function signIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Continue with Email' }).click();
  const submit = page.getByRole('button', { name: 'Continue' });
  await expect(submit).toBeDisabled();
  await page.getByLabel('Email address').fill(email);
  await submit.click();
  await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Code').fill(await latestCode(page.request, email));
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A new user's onboarding up to their first workspace. */
export async function onboard(page: Page, name: string, organisation: string) {
  await expect(page).toHaveURL(/\/onboarding$/);
  await page.getByRole('button', { name: 'Get started' }).click();
  await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Create new workspace')).toBeVisible();
  await page.getByText('Join existing team').click();
  await expect(page.getByText(/Ask a team member to invite you/)).toBeVisible();
  await page.getByText('Create new workspace').click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Organization name').fill(organisation);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await expect(page).toHaveURL(/\/workspaces\/\d+(\?.*)?$/);
  await expect(page).toHaveTitle(`${organisation} · Openrate`);
  await dismissGettingStarted(page);
}

export const drawerNamed = (page: Page, title: string) =>
  page.locator('.bp6-drawer', { has: page.getByRole('heading', { name: title, exact: true }) });

/** New users see the getting-started drawer; closing it is remembered. */
export async function dismissGettingStarted(page: Page) {
  const drawer = drawerNamed(page, 'Getting started');
  await expect(drawer).toBeVisible();
  const remembered = page.waitForResponse(
    (response) => response.url().endsWith('/api/me') && response.request().method() === 'PATCH',
  );
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();
  expect((await remembered).ok()).toBe(true);
}

export const workspaceIdOf = (page: Page) => Number(/\/workspaces\/(\d+)/.exec(page.url())?.[1]);

/** Signs in (the demo user unless told) and answers the Acme Retail workspace id, with the getting-started drawer off. */
export async function openAcme(page: Page, email = 'demo@example.com'): Promise<number> {
  await signIn(page, email);
  await expect(page).toHaveURL(/\/workspaces\/\d+/);
  const me = (await (await page.request.get('/api/me')).json()) as {
    showGettingStarted: boolean;
    workspaces: { id: number; name: string }[];
  };
  if (me.showGettingStarted) {
    const patched = await page.request.patch('/api/me', { headers: API_HEADERS, data: { showGettingStarted: false } });
    expect(patched.ok()).toBe(true);
  }
  const acme = me.workspaces.find((workspace) => workspace.name === 'Acme Retail')?.id;
  expect(acme).toBeDefined();
  return acme!;
}

/** The path of a report of the workspace by its title, e.g. the demo workspaces' 'Default Dashboard'. */
export async function reportPathByTitle(page: Page, workspaceId: number, title: string): Promise<string> {
  const response = await page.request.get(`/api/workspaces/${workspaceId}/reports`);
  expect(response.ok()).toBe(true);
  const reports = ((await response.json()) as { data: { id: number; title: string; type: string }[] }).data;
  const report = reports.find((candidate) => candidate.title === title);
  expect(report).toBeDefined();
  return `/workspaces/${workspaceId}/reports/${report!.type}/${report!.id}`;
}

/**
 * Creates a report of `type` in the workspace through the API, its config titled as the report (a report without
 * `config` gets the server's default one); answers its id and its address in the app.
 */
export async function createReport(
  page: Page,
  workspaceId: number,
  type: 'dashboard' | 'explorer_view',
  title: string,
  config?: object,
): Promise<{ id: number; path: string }> {
  const created = await page.request.post(`/api/workspaces/${workspaceId}/reports/${type}`, {
    headers: API_HEADERS,
    data: config === undefined ? { title } : { title, config: { title, ...config } },
  });
  expect(created.status()).toBe(201);
  const { id } = ((await created.json()) as { data: { id: number } }).data;
  return { id, path: `/workspaces/${workspaceId}/reports/${type}/${id}` };
}
