import { expect, test } from '@playwright/test';
import { API_HEADERS, openAcme } from './support';

const EMAIL = 'demo@example.com';

test('an alert rule: preview, save, evaluation, violation and e-mail; duplicate and remove', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  const workspaceId = await openAcme(page, EMAIL);
  const title = `Sends happened ${Date.now().toString(36)}`;

  await page.goto(`/workspaces/${workspaceId}/alerting`);
  await expect(page.getByRole('heading', { name: 'Alerting' })).toBeVisible();
  await page.getByRole('button', { name: 'Add alert' }).click();
  await expect(page).toHaveURL(/drawer\.type=edit-alert/);
  const drawer = page.locator('.or-alert-drawer');
  await drawer.getByLabel('Title').fill(title);

  // Any day with sends triggers: the demo data has them on most of the last 30 days.
  await drawer.getByRole('button', { name: 'Add condition' }).click({ timeout: 120_000 });
  const condition = drawer.getByRole('group', { name: 'Condition' });
  await condition.getByRole('combobox', { name: 'Field' }).selectOption({ label: 'Sent' });
  await condition.getByRole('combobox', { name: 'Operator' }).selectOption('gt');
  await condition.getByRole('textbox', { name: 'Value' }).fill('0');
  const preview = drawer.getByRole('list', { name: 'Preview' });
  await expect(preview.getByLabel(/: Triggered$/).first()).toBeVisible({ timeout: 60_000 });

  await drawer.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(new RegExp(`/workspaces/${workspaceId}/alerting$`));
  const rowOf = (text: string) => page.getByRole('row').filter({ has: page.getByText(text, { exact: true }) });
  const row = rowOf(title);
  await expect(
    row
      .getByRole('list', { name: `History of ${title}` })
      .getByLabel(/: Triggered$/)
      .first(),
  ).toBeVisible({
    timeout: 60_000,
  });

  // The evaluation the daily job runs, triggered now: the rule fires, its violation opens, the e-mail goes out.
  const evaluated = await page.request.post(`/api/workspaces/${workspaceId}/alerting/evaluate`, {
    headers: API_HEADERS,
    data: {},
  });
  expect(evaluated.ok()).toBe(true);
  await page.reload();
  await expect(row).toHaveAttribute('data-state', 'open');
  await expect
    .poll(async () => {
      const response = await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(EMAIL)}`);
      const body = (await response.json()) as { data: { subject: string }[] };
      return body.data.some((message) => message.subject.includes(title));
    })
    .toBe(true);

  // Duplicate saves a copy under its own id; Remove asks first.
  await row.getByRole('button', { name: `Actions for ${title}` }).click();
  await page.getByRole('menuitem', { name: 'Duplicate' }).click();
  await expect(drawer.getByLabel('Title')).toHaveValue(`${title} (copy)`);
  await drawer.getByRole('button', { name: 'Save' }).click();
  const copy = rowOf(`${title} (copy)`);
  await expect(copy).toBeVisible();

  await copy.getByRole('button', { name: `Actions for ${title} (copy)` }).click();
  await page.getByRole('menuitem', { name: 'Remove' }).click();
  await expect(page.getByText('Are you sure you want to remove this alert rule?')).toBeVisible();
  // In the confirmation: the editor's drawer, closing after the save, may still hold its own Remove buttons.
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
  await expect(copy).toHaveCount(0);
  await expect(row).toBeVisible();
});
