import { expect, test, type Page } from '@playwright/test';
import { createReport, openAcme } from './support';

const DATASET = 'campaign_metrics_by_send_date';

/** The list-layout item holding the widget titled `title`. */
const listItem = (page: Page, title: string) =>
  page.locator('.or-dashboard-list-item', { has: page.getByRole('region', { name: title, exact: true }) });

test('a dashboard without the grid flag lists its widgets on 12 columns, tables 427 px, graphs 400 px wide', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1400, height: 1000 });
  const workspaceId = await openAcme(page);
  const title = `List ${Date.now().toString(36)}`;
  const widgets = [
    { id: 'g1', type: 'graph', title: 'Sends A', dataset: DATASET, metrics: ['sent'] },
    { id: 'g2', type: 'graph', title: 'Sends B', dataset: DATASET, metrics: ['sent'] },
    { id: 't1', type: 'table', title: 'Campaigns', dataset: DATASET, metrics: ['sent'], dimensions: ['campaign_name'] },
  ];
  await page.goto((await createReport(page, workspaceId, 'dashboard', title, { widgets })).path);

  const list = page.locator('.or-dashboard-list');
  await expect(listItem(page, 'Campaigns')).toBeVisible();
  const style = await list.evaluate((element) => {
    const computed = getComputedStyle(element);
    return {
      display: computed.display,
      columns: computed.gridTemplateColumns.split(' ').length,
      columnGap: computed.columnGap,
      rowGap: computed.rowGap,
    };
  });
  expect(style).toEqual({ display: 'grid', columns: 12, columnGap: '16px', rowGap: '16px' });

  // The table fills the row at its default height.
  const table = (await listItem(page, 'Campaigns').boundingBox())!;
  const listBox = (await list.boundingBox())!;
  expect(table.height).toBe(427);
  expect(table.width).toBeCloseTo(listBox.width - 32, 0);

  // Graphs keep 400 px: at this width two share a row, side by side, 16 px apart, without overlapping.
  const first = (await listItem(page, 'Sends A').boundingBox())!;
  const second = (await listItem(page, 'Sends B').boundingBox())!;
  expect(first.width).toBeGreaterThanOrEqual(400);
  expect(second.width).toBeGreaterThanOrEqual(400);
  expect(second.y).toBe(first.y);
  expect(second.x - (first.x + first.width)).toBeCloseTo(16, 0);

  // A narrow window stacks them, still 400 px or wider.
  await page.setViewportSize({ width: 900, height: 1000 });
  await expect
    .poll(async () => {
      const [a, b] = [await listItem(page, 'Sends A').boundingBox(), await listItem(page, 'Sends B').boundingBox()];
      return a && b && b.y > a.y + a.height && a.width >= 400;
    })
    .toBe(true);
});
