import { expect, test, type Page } from '@playwright/test';
import { API_HEADERS, createReport, openAcme } from './support';

const tab = (page: Page, name: string | RegExp) => page.getByRole('tab', { name, exact: true });
const tabs = (page: Page) => page.getByRole('tablist', { name: 'Open reports' }).getByRole('tab');

test('open 30 reports as tabs, close, close others, reload; rename and delete from the row menu', async ({ page }) => {
  test.setTimeout(240_000);
  const workspaceId = await openAcme(page);

  const prefix = `Tabs ${Date.now().toString(36)}`;
  const reports: { id: number; title: string }[] = [];
  for (let index = 1; index <= 30; index++) {
    const title = `${prefix} ${String(index).padStart(2, '0')}`;
    const { id } = await createReport(page, workspaceId, 'dashboard', title, { widgets: [], flags: ['grid_layout'] });
    reports.push({ id, title });
  }
  const urlOf = (index: number) => new RegExp(`/workspaces/${workspaceId}/reports/dashboard/${reports[index].id}$`);

  await page.goto(`/workspaces/${workspaceId}/reports`);
  await expect(page.getByRole('heading', { name: 'Create a new report' })).toBeVisible();
  await expect(tabs(page)).toHaveCount(1);
  await expect(tab(page, 'Home')).toHaveAttribute('aria-selected', 'true');

  // Each row opens its report as a new, focused tab; the Home tab leads back to the list.
  for (const [index, report] of reports.entries()) {
    await page.getByRole('link', { name: report.title, exact: true }).click();
    await expect(page).toHaveURL(urlOf(index));
    await expect(tab(page, report.title)).toHaveAttribute('aria-selected', 'true');
    // The strip scrolls to the focused tab once it holds more than its width shows.
    await expect(tab(page, report.title)).toBeInViewport();
    await tab(page, 'Home').click();
    await expect(page).toHaveURL(new RegExp(`/workspaces/${workspaceId}/reports$`));
  }
  await expect(tabs(page)).toHaveCount(31);
  await expect(tabs(page).nth(1)).toHaveAccessibleName(reports[0].title);
  await expect(tabs(page).nth(30)).toHaveAccessibleName(reports[29].title);

  // Closing the focused tab moves the focus to the next one.
  await tab(page, reports[9].title).click();
  await expect(page).toHaveURL(urlOf(9));
  // The cross is for the mouse; the keyboard closes with Delete (below).
  await page.getByTitle(`Close ${reports[9].title}`, { exact: true }).click();
  await expect(tab(page, reports[9].title)).toHaveCount(0);
  await expect(tab(page, reports[10].title)).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(urlOf(10));
  await expect(tabs(page)).toHaveCount(30);

  // The strip survives a reload.
  await page.reload();
  await expect(tabs(page)).toHaveCount(30);
  await expect(tab(page, reports[10].title)).toHaveAttribute('aria-selected', 'true');
  await expect(tab(page, reports[10].title)).toBeInViewport();

  // The keyboard closes the focused tab with Delete (WAI-ARIA tabs pattern).
  await tab(page, reports[10].title).focus();
  await page.keyboard.press('Delete');
  await expect(tab(page, reports[10].title)).toHaveCount(0);
  await expect(tab(page, reports[11].title)).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(urlOf(11));
  await expect(tabs(page)).toHaveCount(29);

  // A report deleted elsewhere disappears from the polled list (every 10 s), and its tab with it.
  const gone = await page.request.delete(`/api/workspaces/${workspaceId}/reports/dashboard/${reports[25].id}`, {
    headers: API_HEADERS,
  });
  expect(gone.ok()).toBe(true);
  await expect(tab(page, reports[25].title)).toHaveCount(0, { timeout: 25_000 });
  await expect(tabs(page)).toHaveCount(28);

  // Close others keeps Home and the chosen tab.
  await tab(page, reports[20].title).click({ button: 'right' });
  await page.getByRole('menuitem', { name: 'Close others' }).click();
  await expect(tabs(page)).toHaveCount(2);
  await expect(tab(page, reports[20].title)).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(urlOf(20));
  await page.reload();
  await expect(tabs(page)).toHaveCount(2);
  await expect(tab(page, reports[20].title)).toBeVisible();

  // Double-click renames in place.
  const inTab = `${reports[20].title} in tab`;
  await tab(page, reports[20].title).dblclick();
  await page.getByLabel('Report name').fill(inTab);
  await page.getByLabel('Report name').press('Enter');
  await expect(page.getByText('Report renamed')).toBeVisible();
  await expect(tab(page, inTab)).toBeVisible();
  // Let the toast go, so the next rename's toast is the one seen.
  await expect(page.getByText('Report renamed')).toBeHidden();

  // Rename from the row menu: the dialog in the spec's words, the toast, the tab's title follows.
  const renamed = `${reports[20].title} renamed`;
  await page.getByRole('button', { name: 'Open Home tab' }).click();
  await expect(tab(page, 'Home')).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: `Actions for ${inTab}` }).click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const dialog = page.getByRole('dialog', { name: 'Please enter a new name for the view' });
  await dialog.getByLabel('Report name').fill(renamed);
  await dialog.getByRole('button', { name: 'Ok' }).click();
  await expect(page.getByText('Report renamed')).toBeVisible();
  await expect(tab(page, renamed)).toBeVisible();
  await expect(page.getByRole('link', { name: renamed, exact: true })).toBeVisible();

  // Delete from the row menu: its tab closes too.
  await page.getByRole('button', { name: `Actions for ${renamed}` }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(page.getByText('Are you sure you want to remove this view?')).toBeVisible();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('Deleted report')).toBeVisible();
  await expect(page.getByRole('link', { name: renamed, exact: true })).toHaveCount(0);
  await expect(tabs(page)).toHaveCount(1);

  // A template creates a report titled after it and the date, and opens it as a tab.
  await page.getByRole('button', { name: 'Create Dashboard' }).click();
  await expect(page.getByText('Successfully created report')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/workspaces/${workspaceId}/reports/dashboard/\\d+$`));
  await expect(tab(page, /^Dashboard \(\d\d-\d\d-\d{4}\)$/)).toHaveAttribute('aria-selected', 'true');
});

test('the list filters, orders and remembers its choices per workspace', async ({ page }) => {
  const workspaceId = await openAcme(page);
  const prefix = `Filter ${Date.now().toString(36)}`;
  for (const [type, title] of [
    ['dashboard', `${prefix} b dashboard`],
    ['explorer_view', `${prefix} a explorer`],
  ] as const) {
    await createReport(page, workspaceId, type, title);
  }
  await page.goto(`/workspaces/${workspaceId}/reports`);
  await page.getByLabel('Search reports').fill(prefix);
  const rows = page.getByRole('link', { name: new RegExp(`^${prefix}`) });
  await expect(rows).toHaveCount(2);

  await page.getByLabel('Order by').selectOption('title');
  await expect(rows).toHaveText([`${prefix} a explorer`, `${prefix} b dashboard`]);
  await page.getByLabel('Order by').selectOption('modifiedAt');
  await expect(page.getByRole('heading', { name: 'Today' })).toBeVisible();
  await page.getByLabel('Report type').selectOption('explorer_view');
  await expect(rows).toHaveText([`${prefix} a explorer`]);
  await page.getByLabel('Created by').selectOption('notMe');
  await expect(rows).toHaveCount(0);
  await page.getByLabel('Created by').selectOption('me');
  await expect(rows).toHaveCount(1);

  await page.reload();
  await expect(page.getByLabel('Order by')).toHaveValue('modifiedAt');
  await expect(page.getByLabel('Report type')).toHaveValue('explorer_view');
  await expect(page.getByLabel('Created by')).toHaveValue('me');
});
