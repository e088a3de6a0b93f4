import { expect, test } from '@playwright/test';
import { createReport, openAcme } from './support';

test('data-model editor: add a metric, check it as typed, undo and redo, guard a table switch, save, use it in a widget', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  const workspaceId = await openAcme(page);
  const suffix = Date.now().toString(36);
  const name = `Clicks per send ${suffix}`;
  const id = `clicks_per_send_${suffix}`;

  await page.goto(`/workspaces/${workspaceId}/settings/data-model`);
  await expect(page).toHaveURL(/\/settings\/data-model\/tables\/campaign_metrics_by_send_date$/);
  await expect(page.getByText('Select a field')).toBeVisible();

  // 'Add field': a metric needs a name, then opens in the editor.
  await page.getByRole('button', { name: 'Add field' }).click();
  await page.getByRole('menuitem', { name: 'Metric' }).click();
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('Field name is required')).toBeVisible();
  await page.getByLabel('Metric name').fill(name);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/fields/${id}$`));

  // The expression is checked as it is typed; a valid one shows its value over the last 30 days.
  const expression = page.getByLabel('Expression');
  await expression.fill('clicks_unique /');
  await expect(page.getByText('Expression cannot end with an operator')).toBeVisible();
  await expect(page.getByText('Resolve errors to save changes')).toBeVisible();
  await expression.fill('clicks_unique / sent');
  await expect(page.getByText('Expression cannot end with an operator')).toHaveCount(0);
  const preview = page.getByRole('status', { name: 'Preview, last 30 days' });
  await expect(preview).toHaveText(/\d/, { timeout: 120_000 });

  await page.screenshot({ path: test.info().outputPath('data-model-editor.png') });

  // Undo and redo, with the buttons and with the keyboard.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(expression).toHaveValue('clicks_unique /');
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(expression).toHaveValue('clicks_unique / sent');
  await page.getByRole('heading', { name: 'Data model' }).click();
  await page.keyboard.press('Control+z');
  await expect(expression).toHaveValue('clicks_unique /');
  await page.keyboard.press('Control+Shift+z');
  await expect(expression).toHaveValue('clicks_unique / sent');

  // Another table while changes are unsaved: asked first.
  await page.getByRole('button', { name: 'Campaigns by event date', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Unsaved Changes' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Keep Editing' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`/fields/${id}$`));

  // Saved: nothing pending, and switching tables no longer asks.
  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/schema/custom-fields') && response.request().method() === 'PUT',
  );
  await page.getByRole('button', { name: 'Save' }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await page.getByRole('button', { name: 'Campaigns by event date', exact: true }).click();
  await expect(page).toHaveURL(/\/tables\/campaign_metrics_by_event_date$/);
  await expect(dialog).toHaveCount(0);

  // The new metric is offered by a dashboard widget's metric picker and computed in its preview.
  const title = `Data model ${suffix}`;
  const widget = {
    id: 'dm-table',
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
  await page.goto(`${path}?drawer.type=configure-dashboard-widget&drawer.widgetId=dm-table`);
  const drawer = page.locator('.or-widget-config-drawer');
  const settings = drawer.getByRole('region', { name: 'Widget settings' });
  const widgetPreview = drawer.getByRole('region', { name: 'Preview' });
  await expect(widgetPreview.getByRole('columnheader', { name: 'Sent' })).toBeVisible({ timeout: 120_000 });
  await settings.getByRole('textbox', { name: 'Metrics' }).fill('Clicks per send');
  await page.getByRole('listbox', { name: 'Metrics options' }).getByRole('option', { name, exact: true }).click();
  await expect(widgetPreview.getByRole('columnheader', { name, exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(widgetPreview.locator('tbody tr').first()).toBeVisible();
});
