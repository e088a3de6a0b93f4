import { expect, test } from '@playwright/test';
import { openAcme } from './support';

test('the alert drawer shows a new webhook signing secret once and copies it', async ({ page, context }) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const workspaceId = await openAcme(page);
  await page.goto(`/workspaces/${workspaceId}/alerting`);
  await page.getByRole('button', { name: 'Add alert' }).click();
  const drawer = page.locator('.or-alert-drawer');
  // A database reused between runs may have a secret already: rotating answers a new one the same way.
  await drawer.getByRole('button', { name: /^(Create|Rotate) secret$/ }).click();
  const secret = drawer.getByLabel('Webhook signing secret');
  await expect(secret).toHaveValue(/^whsec_[0-9a-f]{64}$/);
  await expect(drawer.getByText('Copy this secret now: it will not be shown again.')).toBeVisible();
  await drawer.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('Copied to clipboard')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await secret.inputValue());

  // Opened again, the drawer only says that a secret exists.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Rotate secret' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/^A signing secret exists/)).toBeVisible();
  await expect(page.getByLabel('Webhook signing secret')).toHaveCount(0);
});
