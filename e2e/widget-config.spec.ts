import { expect, test } from '@playwright/test';
import { createReport, openAcme } from './support';

test('configure a table widget: metrics, a filter picked from the values, a dataset switch', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  const workspaceId = await openAcme(page);
  const title = `Configure ${Date.now().toString(36)}`;
  const widget = {
    id: 'cfg-table',
    type: 'table',
    title: 'Per country',
    dataset: 'campaign_metrics_by_send_date',
    metrics: ['sent'],
    dimensions: ['country'],
    layout: { x: 0, y: 0, w: 24, h: 22 },
  };
  const { path } = await createReport(page, workspaceId, 'dashboard', title, {
    flags: ['grid_layout'],
    widgets: [widget],
  });

  await page.goto(`${path}?drawer.type=configure-dashboard-widget&drawer.widgetId=cfg-table`);
  const drawer = page.locator('.or-widget-config-drawer');
  await expect(drawer.getByRole('heading', { name: 'Configure widget' })).toBeVisible();
  const settings = drawer.getByRole('region', { name: 'Widget settings' });
  const preview = drawer.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('columnheader', { name: 'Sent' })).toBeVisible({ timeout: 120_000 });

  // A metric chosen from the searchable list shows in the preview at once.
  await settings.getByRole('textbox', { name: 'Metrics' }).click();
  await settings.getByRole('textbox', { name: 'Metrics' }).fill('reven');
  await page
    .getByRole('listbox', { name: 'Metrics options' })
    .getByRole('option', { name: 'Revenue', exact: true })
    .click();
  await expect(preview.getByRole('columnheader', { name: 'Revenue', exact: true })).toBeVisible();
  // Escape closes the list, not the drawer.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('listbox', { name: 'Metrics options' })).toHaveCount(0);
  await expect(drawer.getByRole('heading', { name: 'Configure widget' })).toBeVisible();

  // A filter row asks for its field, then offers the country's values from the data.
  await settings.getByRole('button', { name: 'Add filter' }).click();
  const row = settings.getByRole('group', { name: 'Filter' });
  await expect(row.getByText('This field is required').first()).toBeVisible();
  await row.getByRole('combobox', { name: 'Field' }).selectOption('country');
  await row.getByRole('textbox', { name: 'Values' }).click();
  const values = page.getByRole('listbox', { name: 'Values options' }).getByRole('option');
  await expect(values.first()).toBeVisible();
  expect(await values.count()).toBeGreaterThan(1);
  await values.first().click();
  await page.keyboard.press('Escape');
  await expect(row.getByText('This field is required')).toHaveCount(0);
  await expect(preview.locator('tbody tr')).toHaveCount(1);

  // Switching the operator starts the values again; set and notSet ask none.
  await row.getByRole('combobox', { name: 'Operator' }).selectOption({ label: 'Is not empty' });
  await expect(row.getByRole('textbox', { name: 'Values' })).toHaveCount(0);

  // GA4 has no Sent: the metric is dropped once its schema is known, Revenue too, country stays.
  await settings.getByRole('combobox', { name: 'Dataset' }).selectOption('ga4');
  const metrics = settings.locator('.bp6-tag-input', { has: page.getByRole('textbox', { name: 'Metrics' }) });
  await expect(metrics.getByText('Sent', { exact: true })).toHaveCount(0, { timeout: 30_000 });
  await expect(settings.getByRole('combobox', { name: 'Date field' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('widget-config-drawer.png') });
});

test("an unknown widget id says 'Widget not found'", async ({ page }) => {
  const workspaceId = await openAcme(page);
  const title = `Configure missing ${Date.now().toString(36)}`;
  const { path } = await createReport(page, workspaceId, 'dashboard', title, { flags: ['grid_layout'], widgets: [] });
  await page.goto(`${path}?drawer.type=configure-dashboard-widget&drawer.widgetId=nope`);
  await expect(page.locator('.or-widget-config-drawer').getByText('Widget not found')).toBeVisible();
});
