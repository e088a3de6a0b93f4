import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { API_HEADERS, openAcme, reportPathByTitle } from './support';

/** Issue 21: an axe-core audit (WCAG 2.1 A and AA) of every screen, light and dark, finds nothing. */

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

    test('integrations, data model, agency, targets, alerting, engagement, an explorer view and the public report have no WCAG 2.1 A/AA violations', async ({
      page,
    }) => {
      test.setTimeout(360_000);
      const workspaceId = await openAcme(page);
      const base = `/workspaces/${workspaceId}`;
      const audit = async (name: string) => {
        await expectTheme(page);
        expect.soft(await violations(page), name).toEqual([]);
      };

      await page.goto(`${base}/settings/integrations`);
      await expect(page.getByRole('heading', { name: 'Available' })).toBeVisible();
      await audit('integrations');

      await page.goto(`${base}/settings/data-model`);
      await expect(page.getByText('Select a field')).toBeVisible({ timeout: 60_000 });
      await audit('data model');

      const me = (await (await page.request.get('/api/me')).json()) as { workspaces: { id: number; name: string }[] };
      const fjord = me.workspaces.find((workspace) => workspace.name === 'Fjord Outdoor')!.id;
      await page.goto(`/workspaces/${fjord}/settings/agency`);
      await expect(page.getByRole('cell', { name: 'Lumen Cosmetics' })).toBeVisible();
      await audit('agency');

      // A target of its own, so the page shows a computed card rather than its empty state.
      const target = await page.request.put(`/api${base}/targets/a11y-${colorScheme}`, {
        headers: API_HEADERS,
        data: {
          title: `Audit sends ${colorScheme}`,
          metric: 'sent',
          target: 1000,
          dateStart: '2026-01-01',
          dateEnd: '2026-12-31',
        },
      });
      expect(target.ok()).toBe(true);
      await page.goto(`${base}/targets`);
      await expect(page.getByLabel('Percent reached').first()).toBeVisible({ timeout: 120_000 });
      await audit('targets');

      await page.goto(`${base}/alerting`);
      await expect(page.getByRole('heading', { name: 'Alerting' })).toBeVisible();
      await expect(page.getByRole('columnheader', { name: 'History (30 days)' })).toBeVisible({ timeout: 60_000 });
      await audit('alerting');

      await page.goto(`${base}/engagement`);
      await expect(page.getByRole('img', { name: /^Segment sizes: New / })).toBeVisible({ timeout: 120_000 });
      await audit('engagement');

      await page.goto(await reportPathByTitle(page, workspaceId, 'Campaigns by country'));
      await expect(page.getByText(/^Rows: [1-9]/)).toBeVisible({ timeout: 120_000 });
      await audit('explorer view');

      const publicPath = await reportPathByTitle(page, workspaceId, 'Newsletter results');
      await page.goto(`/reports/${publicPath.split('/').pop()}`);
      const kpis = page.getByRole('region', { name: 'KPI overview', exact: true });
      await expect(kpis.getByRole('tabpanel').locator('svg').first()).toBeVisible({ timeout: 120_000 });
      await audit('public report');
    });
  });
}

/** The running CSS transitions of the page (a dialog scaling in, an input's focus ring fading). */
const runningTransitions = (page: Page) =>
  page.evaluate(() => document.getAnimations().filter((animation) => animation instanceof CSSTransition).length);

/** The sign-in page's e-mail field's transition, as computed for the user's motion setting. */
async function emailFieldTransition(page: Page): Promise<string> {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Continue with Email' }).click();
  return page.getByLabel('Email address').evaluate((field) => getComputedStyle(field).transitionDuration);
}

test.describe('a user who asks the system for less motion', () => {
  // Every spec runs so (playwright.config.ts); said here as well, since this one is about it.
  test.use({ reducedMotion: 'reduce' });

  test('sees dialogs and fields change at once, without transitions (WCAG 2.3.3)', async ({ page }) => {
    test.setTimeout(120_000);
    expect(await emailFieldTransition(page)).toBe('0s');
    const workspaceId = await openAcme(page);
    await page.goto(await reportPathByTitle(page, workspaceId, 'Default Dashboard'));
    await expect(page.locator('[data-widget-id]').first()).toBeVisible({ timeout: 60_000 });
    // Blueprint's dialog scales in for 300 ms where motion is welcome.
    await page.keyboard.press('Shift+Slash');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    expect(await runningTransitions(page)).toBe(0);
  });
});

test.describe('a user with no motion setting', () => {
  test.use({ reducedMotion: 'no-preference' });

  test("sees Blueprint's transitions", async ({ page }) => {
    expect(await emailFieldTransition(page)).not.toBe('0s');
  });
});
