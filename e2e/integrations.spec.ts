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

test('an admin enables Google Analytics, adds a property with the UK market and removes it', async ({ page }) => {
  await signIn(page, uniqueEmail('analytics'));
  await onboard(page, 'Gala Analyst', 'Gala Shop');
  await page.goto(`/workspaces/${workspaceIdOf(page)}/settings/integrations`);
  await page.getByRole('region', { name: 'Google Analytics' }).getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByText('No Google Analytics views have been selected yet.')).toBeVisible();

  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await page.getByLabel('View', { exact: true }).selectOption({ label: 'Acme Shop GA › Acme Shop UK' });
  await page.getByRole('button', { name: 'Market' }).click();
  await page.getByLabel('Search countries').fill('United K');
  await page.getByRole('option', { name: /United Kingdom/ }).click();
  const flag = page.getByRole('button', { name: 'Market' }).getByAltText('United Kingdom flag');
  await expect(flag).toHaveAttribute('src', '/img/markets/GB.png');
  // The server drew the flag: the image loaded with its pixels.
  await expect.poll(() => flag.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(48);
  await save.click();

  const views = page.getByRole('table', { name: 'Google Analytics views' });
  const row = views.getByRole('row', { name: /Acme Shop UK/ });
  await expect(row.getByText('United Kingdom')).toBeVisible();
  await expect(row.getByAltText('United Kingdom flag')).toHaveAttribute('src', '/img/markets/GB.png');
  await page.reload();
  await expect(page.getByRole('table', { name: 'Google Analytics views' }).getByText('Acme Shop UK')).toBeVisible();

  await page.getByRole('button', { name: 'Remove Acme Shop UK' }).click();
  await expect(page.getByText('No Google Analytics views have been selected yet.')).toBeVisible();
  await page.getByRole('link', { name: 'All integrations' }).click();
  await expect(
    page.getByRole('row', { name: /Google Analytics/ }).getByText('Inactive', { exact: true }),
  ).toBeVisible();
});
