import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openAcme, reportPathByTitle } from './support';

/** Issue 21: an axe-core audit (WCAG 2.1 A and AA) of the screens a new user meets, light and dark, finds nothing. */

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The violations as readable lines (rule, then the offending elements), so a failure says what to fix. */
async function violations(page: Page): Promise<string[]> {
  const results = [await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze()];
  return results.flatMap(({ violations: found }) =>
    found.flatMap((violation) =>
      violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} — ${node.failureSummary ?? ''}`),
    ),
  );
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} mode`, () => {
    test.use({ colorScheme, viewport: { width: 1400, height: 900 } });
    // The colour mode a user picks in their profile, kept in local storage.
    test.beforeEach(({ page }) => page.addInitScript((mode) => localStorage.setItem('darkMode', mode), colorScheme));

    const expectTheme = (page: Page) =>
      colorScheme === 'dark'
        ? expect(page.locator('body')).toHaveClass(/bp6-dark/)
        : expect(page.locator('body')).not.toHaveClass(/bp6-dark/);

    test('the login page has no WCAG 2.1 A/AA violations', async ({ page }) => {
      await page.goto('/login');
      await expect(page.getByRole('link', { name: 'Continue with Email' })).toBeVisible();
      await expectTheme(page);
      expect(await violations(page)).toEqual([]);
    });

    test('reports home, the demo dashboard and the settings pages have no WCAG 2.1 A/AA violations', async ({
      page,
    }) => {
      test.setTimeout(240_000);
      const workspaceId = await openAcme(page);
      const base = `/workspaces/${workspaceId}`;

      await page.goto(`${base}/reports`);
      await expect(page.getByRole('heading', { name: 'Reports', exact: true })).toBeVisible();
      await expectTheme(page);
      expect.soft(await violations(page), 'reports home').toEqual([]);

      await page.goto(await reportPathByTitle(page, workspaceId, 'Default Dashboard'));
      const kpis = page.getByRole('region', { name: 'KPI overview', exact: true });
      await expect(kpis.getByRole('tab')).toHaveCount(7, { timeout: 90_000 });
      // Audit the computed dashboard, not its loading state.
      await expect(kpis.getByRole('tabpanel').locator('svg').first()).toBeVisible({ timeout: 60_000 });
      await expect(
        page.getByRole('region', { name: 'Sent over time', exact: true }).locator('svg').first(),
      ).toBeVisible({ timeout: 60_000 });
      expect.soft(await violations(page), 'dashboard').toEqual([]);

      // Each page once its data is there: a text only the loaded page shows.
      for (const [path, loaded] of [
        ['settings/profile', 'Security'],
        ['settings/general', 'Choose file…'],
        ['settings/members', 'demo@example.com'],
      ]) {
        await page.goto(`${base}/${path}`);
        await expect(page.getByText(loaded, { exact: true }).first()).toBeVisible();
        expect.soft(await violations(page), path).toEqual([]);
      }
    });
  });
}
