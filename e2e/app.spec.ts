import { expect, test } from '@playwright/test';

test('an unknown path shows the not-found page', async ({ page }) => {
  const response = await page.goto('/this/path/does-not-exist');
  expect(response?.status()).toBe(200);
  await expect(page.getByText('The page you were looking for could not be found.')).toBeVisible();
});

test('the start page reaches the server', async ({ page }) => {
  await page.goto('/status');
  await expect(page.getByRole('heading', { name: 'Openrate' })).toBeVisible();
  await expect(page.getByText('Server ready')).toBeVisible();
});

test('DuckDB-WASM runs a query in a worker and plotly draws the result', async ({ page }) => {
  const wasm: string[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('.wasm')) wasm.push(response.headers()['content-type'] ?? '');
  });
  await page.goto('/status');
  await page.getByRole('button', { name: 'Check the query engine' }).click();
  await expect(page.getByTestId('engine-version')).toHaveText(/^DuckDB v\d+\.\d+/, { timeout: 30_000 });
  await expect(page.locator('.js-plotly-plot .scatterlayer path.js-line')).toHaveCount(1);
  expect(wasm).toEqual(['application/wasm']);
});

test('the stored colour mode drives the dark theme', async ({ page }) => {
  await page.goto('/status');
  await expect(page.locator('body')).not.toHaveClass(/bp6-dark/);
  await page.evaluate(() => window.localStorage.setItem('darkMode', 'dark'));
  await page.reload();
  await expect(page.locator('body')).toHaveClass(/bp6-dark/);
});

test('colour mode System follows the operating system', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/status');
  await page.evaluate(() => window.localStorage.setItem('darkMode', 'os'));
  await page.reload();
  await expect(page.locator('body')).toHaveClass(/bp6-dark/);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(page.locator('body')).not.toHaveClass(/bp6-dark/);
});
