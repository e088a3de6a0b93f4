import { expect, test } from '@playwright/test';
import { SIMULATOR_CREDENTIALS } from '../server/integrations/simulator';
import { onboard, signIn, uniqueEmail, workspaceIdOf } from './support';

test('an admin connects Klaviyo: a bad key is refused with the spec message, a good one makes it Active', async ({
  page,
}) => {
  await signIn(page, uniqueEmail('integrations'));
  await onboard(page, 'Ivy Integrator', 'Ivy Shop');
  const workspaceId = workspaceIdOf(page);
  await page.goto(`/workspaces/${workspaceId}/settings/integrations`);
  await expect(page.getByText('No integrations have been enabled yet.')).toBeVisible();
  await page.getByRole('region', { name: 'Klaviyo' }).getByRole('button', { name: 'Connect' }).click();

  await page.getByLabel('Private API key').fill('pk_wrong');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Failed to connect to your Klaviyo account, please check the API key.')).toBeVisible();

  await page.getByLabel('Private API key').fill(SIMULATOR_CREDENTIALS.klaviyoApiKey);
  await page.getByRole('button', { name: 'Update credentials' }).click();
  await expect(page.getByText('Acme Shop')).toBeVisible();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'All integrations' }).click();
  const enabled = page.getByRole('row', { name: /Klaviyo/ });
  await expect(enabled.getByText('Active', { exact: true })).toBeVisible();
});

test('an admin picks Copernica views in the tree and renames one', async ({ page }) => {
  await signIn(page, uniqueEmail('copernica'));
  await onboard(page, 'Cora Copernica', 'Cora Shop');
  await page.goto(`/workspaces/${workspaceIdOf(page)}/settings/integrations/copernica`);
  await page.getByLabel('API token').fill(SIMULATOR_CREDENTIALS.copernicaToken);
  await page.getByRole('button', { name: 'Connect' }).click();

  const views = page.getByRole('region', { name: 'Copernica views' });
  await views.getByRole('button', { name: 'Expand Newsletter subscribers' }).click();
  await views.getByRole('button', { name: 'Expand Active subscribers' }).click();
  await views.getByText('Netherlands').click();
  await views.getByLabel('Name of tracked view 111').fill('NL subscribers');
  const saved = page.waitForResponse(
    (response) => response.url().endsWith('/tracked-views') && response.request().method() === 'PUT',
  );
  await views.getByRole('button', { name: 'Save' }).click();
  expect((await saved).status()).toBe(200);

  await page.reload();
  await expect(
    page.getByRole('region', { name: 'Copernica views' }).getByLabel('Name of tracked view 111'),
  ).toHaveValue('NL subscribers');
});
