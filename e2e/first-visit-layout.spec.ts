import { expect, test, type Locator } from '@playwright/test';
import { drawerNamed, openAcme, reportPathByTitle } from './support';

/** Issue 21, "What a new user meets first": the getting-started drawer and the KPI tabs hide nothing. */

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

for (const width of [1400, 1100]) {
  test(`at ${width} px every KPI tab is inside the widget and the viewport, none under the getting-started drawer`, async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    const workspaceId = await openAcme(page);
    await page.goto(`${await reportPathByTitle(page, workspaceId, 'Default Dashboard')}?drawer.type=getting-started`);

    const drawer = drawerNamed(page, 'Getting started');
    await expect(drawer).toBeVisible();
    const widget = page.getByRole('region', { name: 'KPI overview', exact: true });
    const tabs = widget.getByRole('tab');
    await expect(tabs).toHaveCount(7, { timeout: 90_000 });
    await expect(tabs.last()).toContainText('Revenue');
    // The values are computed in the browser: wait for them before measuring the final layout.
    await expect(widget.getByRole('tabpanel').locator('svg').first()).toBeVisible({ timeout: 60_000 });
    // The drawer slides in: measure once it rests against the right edge.
    await expect.poll(async () => (await box(drawer)).x).toBeLessThanOrEqual(width - 360 + 1);

    const drawerBox = await box(drawer);
    const widgetBox = await box(widget);
    expect(drawerBox.x).toBeGreaterThanOrEqual(widgetBox.x + widgetBox.width);
    for (let index = 0; index < 7; index += 1) {
      const tab = await box(tabs.nth(index));
      expect(tab.x).toBeGreaterThanOrEqual(widgetBox.x);
      expect(tab.x + tab.width).toBeLessThanOrEqual(widgetBox.x + widgetBox.width);
      expect(tab.x + tab.width).toBeLessThanOrEqual(drawerBox.x);
      expect(tab.x + tab.width).toBeLessThanOrEqual(width);
    }
    await page.screenshot({ path: testInfo.outputPath(`kpi-tabs-${width}.png`) });

    // Closed, the drawer gives its room back to the page.
    await drawer.getByRole('button', { name: 'Close' }).click();
    await expect(drawer).toBeHidden();
    await expect.poll(async () => (await box(widget)).width).toBeGreaterThan(widgetBox.width);
  });
}
