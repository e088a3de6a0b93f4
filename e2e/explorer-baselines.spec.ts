import { expect, test, type Page } from '@playwright/test';
import { createReport, drawerNamed, openAcme } from './support';

const drawer = (page: Page) => drawerNamed(page, 'Baselines');
const meets = (page: Page) => page.locator('.or-explorer-grid .or-baseline-meets');
const misses = (page: Page) => page.locator('.or-explorer-grid .or-baseline-misses');

async function openBaselines(page: Page) {
  await page.locator('.or-explorer-bar').getByRole('button', { name: 'Baselines' }).click();
  await expect(drawer(page)).toBeVisible();
}

/** Picks a choice and applies it; the drawer closes. */
async function apply(page: Page, choice: string) {
  await openBaselines(page);
  await drawer(page).getByLabel('Baseline set').selectOption({ label: choice });
  await drawer(page).getByRole('button', { name: 'Apply' }).click();
  await expect(drawer(page)).toBeHidden();
}

async function addBaseline(page: Page, metric: string, value: string) {
  await drawer(page).getByRole('button', { name: 'Add baseline' }).click();
  await page.getByLabel('Find a metric').fill(metric);
  await page.getByRole('listbox', { name: 'Baseline metrics' }).getByText(metric, { exact: true }).click();
  await drawer(page).getByLabel(metric, { exact: true }).fill(value);
}

test('baselines colour the grid, are saved with the view, and round-trip through a template', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1400, height: 900 });
  const workspaceId = await openAcme(page);
  const title = `Baselines ${Date.now().toString(36)}`;
  const { id: reportId, path } = await createReport(page, workspaceId, 'explorer_view', title, {
    columns: [{ colId: 'country', rowGroup: true }],
    valueColumns: ['open_rate', 'click_rate'],
    dateRanges: { main: { preset: 'last_30_days' }, compare: { preset: 'disabled' } },
  });
  await page.goto(path);
  // The first open downloads the dataset into the engine: on a busy machine that takes a while.
  await expect(page.getByLabel('Total rows')).toHaveText(/Rows: [1-9]/, { timeout: 90_000 });
  await expect(meets(page).or(misses(page))).toHaveCount(0);

  // Any open rate meets 0 %; no click rate reaches 100 %.
  await openBaselines(page);
  await addBaseline(page, 'Open rate', '0');
  await addBaseline(page, 'Click rate', '100');
  await drawer(page).getByRole('button', { name: 'Apply' }).click();
  await expect(meets(page).first()).toBeVisible();
  await expect(misses(page).first()).toBeVisible();

  // The baselines are a report edit: undone, redone and saved with the view.
  const toolbar = page.getByRole('toolbar', { name: 'Report toolbar' });
  await toolbar.getByRole('button', { name: 'Undo' }).click();
  await expect(meets(page).or(misses(page))).toHaveCount(0);
  await toolbar.getByRole('button', { name: 'Redo' }).click();
  await expect(meets(page).first()).toBeVisible();
  await expect(misses(page).first()).toBeVisible();
  const saved = page.waitForResponse(
    (r) => r.request().method() === 'PUT' && r.url().endsWith(`/reports/explorer_view/${reportId}`) && r.ok(),
  );
  await toolbar.getByRole('button', { name: 'Save', exact: true }).click();
  await saved;

  // Saved as a template.
  const template = `Template ${Date.now().toString(36)}`;
  await openBaselines(page);
  await drawer(page).getByLabel('Campaign template name').fill(template);
  await drawer(page).getByRole('button', { name: 'Save as template' }).click();
  await expect(drawer(page).getByLabel('Baseline set').locator('option:checked')).toHaveText(template);
  await expect(drawer(page).getByLabel('Click rate', { exact: true })).toHaveText('100%');
  await drawer(page).getByRole('button', { name: 'Close' }).click();

  // After a reload the view still has its baselines.
  await page.reload();
  await expect(page.getByLabel('Total rows')).toHaveText(/Rows: [1-9]/, { timeout: 90_000 });
  await expect(meets(page).first()).toBeVisible();
  await expect(misses(page).first()).toBeVisible();

  // 'none' clears them; the template brings them back.
  await apply(page, 'None');
  await expect(meets(page).or(misses(page))).toHaveCount(0);
  await apply(page, template);
  await expect(meets(page).first()).toBeVisible();
  await expect(misses(page).first()).toBeVisible();

  // The view now names the template's set: the drawer opens on it. Deleting asks first.
  await openBaselines(page);
  const choice = drawer(page).getByLabel('Baseline set');
  await expect(choice.locator('option:checked')).toHaveText(template);
  await drawer(page).getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText(template);
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(choice.locator('option', { hasText: template })).toHaveCount(0);
  const listed = await page.request.get(`/api/workspaces/${workspaceId}/campaign-collections`);
  const names = ((await listed.json()) as { campaignCollections: { name: string }[] }).campaignCollections.map(
    (collection) => collection.name,
  );
  expect(names).not.toContain(template);
});
