import { expect, test, type Page } from '@playwright/test';
import { API_HEADERS, createReport, drawerNamed, openAcme } from './support';

const canvas = (page: Page) => page.locator('.or-dashboard-canvas');
const card = (page: Page, title: string) => page.getByRole('article', { name: `Target ${title}`, exact: true });

/** This month, as the Target drawer's date inputs take it. */
function thisMonth() {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
  const month = `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}`;
  return { start: `${month}-01`, end: `${month}-${pad(last)}` };
}

async function savedTargets(page: Page, workspaceId: number) {
  const response = await page.request.get(`/api/workspaces/${workspaceId}/targets`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: { id: string; title: string; target: number; filters: unknown[] }[] })
    .data;
}

test('targets: drop a tile, create one with a filter and the calculator, save, reload, edit, share, delete', async ({
  page,
  browser,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  const workspaceId = await openAcme(page);
  const stamp = Date.now().toString(36);
  const title = `Sends ${stamp}`;
  const { id: reportId, path } = await createReport(page, workspaceId, 'dashboard', `Goals ${stamp}`, {
    flags: ['grid_layout'],
    widgets: [],
  });

  // Dropping the Target tile opens the Target drawer, not the configure drawer.
  await page.goto(path);
  await page.getByLabel('Edit or view').getByText('Edit', { exact: true }).click();
  const palette = page.getByRole('complementary', { name: 'Editing drawer' });
  await palette.getByRole('button', { name: 'Target', exact: true }).dragTo(canvas(page), {
    targetPosition: { x: 40, y: 40 },
  });
  await expect(page).toHaveURL(/drawer\.type=target/);
  const drawer = drawerNamed(page, 'Target');
  await expect(drawer).toBeVisible();
  await expect(drawerNamed(page, 'Configure widget')).toHaveCount(0);

  // The form: title, metric, this month, and a filter.
  const { start, end } = thisMonth();
  await drawer.getByLabel('Title').fill(title);
  await drawer.getByLabel('Metric').selectOption({ label: 'Sent' });
  await drawer.getByLabel('Start date').fill(start);
  await drawer.getByLabel('End date').fill(end);
  await drawer.getByRole('button', { name: 'Add filter' }).click();
  const filter = drawer.getByRole('group', { name: 'Filter' });
  await filter.getByLabel('Field').selectOption({ label: 'Country' });
  await filter.getByLabel('Operator').selectOption({ label: 'Is not empty' });
  await expect(drawer.getByRole('complementary', { name: 'Preview' }).getByRole('article')).toBeVisible();

  // The calculator: the preceding period's sends plus 10 %.
  await drawer.getByRole('button', { name: 'Target calculator' }).click();
  const preceding = drawer.getByRole('button', { name: /^Preceding period: / });
  await expect(preceding).toBeEnabled({ timeout: 120_000 });
  const precedingValue = Number((await preceding.innerText()).replace(/[^\d]/g, ''));
  expect(precedingValue).toBeGreaterThan(0);
  await preceding.click();
  const handle = drawer.getByLabel('Adjustment percentage');
  await handle.focus();
  for (let step = 0; step < 10; step++) await handle.press('ArrowRight');
  await drawer.getByRole('button', { name: 'Use as target' }).click();
  const expectedTarget = Math.round(precedingValue * 1.1 * 100) / 100;
  // The form shows the number with a comma for decimals and dots between thousands.
  await expect(drawer.getByRole('textbox', { name: 'Target' })).toHaveValue(/^[1-9][\d.]*,\d\d$/);

  const put = page.waitForResponse(
    (response) =>
      response.url().includes(`/workspaces/${workspaceId}/targets/`) && response.request().method() === 'PUT',
  );
  await drawer.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await put).status()).toBe(201);
  await expect(drawer).toBeHidden();
  const [saved] = (await savedTargets(page, workspaceId)).filter((target) => target.title === title);
  expect(saved.target).toBeCloseTo(expectedTarget, 2);
  expect(saved.filters).toEqual([{ member: 'country', operator: 'set', values: [] }]);

  // The card on the canvas; the report saved with the widget naming the target; the same after a reload.
  await expect(card(page, title)).toBeVisible();
  await expect(card(page, title).getByLabel('Percent reached')).toBeVisible({ timeout: 120_000 });
  const reportSaved = page.waitForResponse(
    (response) => response.url().includes(`/reports/dashboard/${reportId}`) && response.request().method() === 'PUT',
  );
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await reportSaved).ok()).toBe(true);
  await page.reload();
  await expect(card(page, title).getByLabel('Percent reached')).toBeVisible({ timeout: 120_000 });

  // Edit from the card.
  await card(page, title)
    .getByRole('button', { name: `Target menu of ${title}` })
    .click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  await expect(drawer.getByLabel('Title')).toHaveValue(title);
  const renamed = `${title} v2`;
  await drawer.getByLabel('Title').fill(renamed);
  await drawer.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(drawer).toBeHidden();
  await expect(card(page, renamed)).toBeVisible();

  // The targets screen, from the sidebar, lists it, with search.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Targets' }).click();
  await expect(page).toHaveURL(new RegExp(`/workspaces/${workspaceId}/targets$`));
  await expect(card(page, renamed).getByLabel('Percent reached')).toBeVisible({ timeout: 120_000 });
  await page.getByLabel('Search targets').fill('no such target');
  await expect(card(page, renamed)).toHaveCount(0);
  await page.getByLabel('Search targets').fill(stamp);
  await expect(card(page, renamed)).toBeVisible();

  // A public link shows the card, read-only.
  const shared = await page.request.put(`/api/workspaces/${workspaceId}/permissions`, {
    headers: API_HEADERS,
    data: { accessLevel: 'read', objectId: reportId, objectType: 'dashboard', subjectType: 'public' },
  });
  expect(shared.ok()).toBe(true);
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/reports/${reportId}`);
  await expect(card(visitor, renamed).getByLabel('Percent reached')).toBeVisible({ timeout: 120_000 });
  await expect(card(visitor, renamed).getByRole('button', { name: /Target menu/ })).toHaveCount(0);
  await visitorContext.close();

  // Delete from the card, after a confirmation.
  await page.goto(`/workspaces/${workspaceId}/reports/dashboard/${reportId}`);
  await card(page, renamed)
    .getByRole('button', { name: `Target menu of ${renamed}` })
    .click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(card(page, renamed)).toHaveCount(0);
  await expect(canvas(page).getByText('No target selected')).toBeVisible();
  expect((await savedTargets(page, workspaceId)).some((target) => target.title === renamed)).toBe(false);
});
