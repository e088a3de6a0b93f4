import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { tableFromIPC } from 'apache-arrow';
import { API_HEADERS, createReport, drawerNamed, openAcme } from './support';

/** Issue 21, the finished screens in a browser: money in the workspace's currency, filters, annotations, tickets. */

const DATASET = 'campaign_metrics_by_send_date';
const canvas = (page: Page) => page.locator('.or-dashboard-canvas');
const widgetCard = (page: Page, title: string) => canvas(page).getByRole('region', { name: title, exact: true });

async function workspaceNamed(page: Page, name: string): Promise<number> {
  const me = (await (await page.request.get('/api/me')).json()) as { workspaces: { id: number; name: string }[] };
  const id = me.workspaces.find((workspace) => workspace.name === name)?.id;
  expect(id).toBeDefined();
  return id!;
}

/** The address of a new report (`createReport`). */
const reportPath = async (...args: Parameters<typeof createReport>) => (await createReport(...args)).path;

const day = (value: unknown) =>
  value instanceof Date
    ? value.toISOString().slice(0, 10)
    : typeof value === 'string'
      ? value.slice(0, 10)
      : new Date(Number(value)).toISOString().slice(0, 10);

interface Row {
  day: string;
  type: string;
  sent: number;
  revenue: number;
}

/** The workspace's campaign rows as the server serves them to browsers (its Arrow file), read here in Node. */
async function campaignRows(page: Page, workspaceId: number): Promise<Row[]> {
  const response = await page.request.get(`/api/workspaces/${workspaceId}/datasets/${DATASET}`);
  expect(response.ok()).toBe(true);
  const table = tableFromIPC(await response.body());
  const rows: Row[] = [];
  for (const row of table) {
    rows.push({
      day: day(row.send_date),
      type: String(row.campaign_type),
      sent: Number(row.sent ?? 0),
      revenue: Number(row.revenue ?? NaN),
    });
  }
  return rows;
}

/** Sent per campaign type over the rows that pass `keep`: what the table widget should show. */
function sentByType(rows: Row[], keep: (row: Row) => boolean): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const row of rows) if (keep(row)) sums[row.type] = (sums[row.type] ?? 0) + row.sent;
  return sums;
}

/** The table widget's rows as {campaign type: sent}, read from the screen (nl_NL groups thousands with '.'). */
async function shownSentByType(page: Page, title: string): Promise<Record<string, number>> {
  const rows = widgetCard(page, title).locator('tbody tr');
  const shown: Record<string, number> = {};
  const cellTexts = await rows.evaluateAll((trs) =>
    trs.map((tr) =>
      [...tr.querySelectorAll('td')].map((td) => (td.querySelector('.or-compare-value') ?? td).textContent ?? ''),
    ),
  );
  for (const cells of cellTexts) {
    shown[cells[0]] = Number(cells[1].replace(/\./g, '').replace(',', '.'));
  }
  return shown;
}

test('an en_GB workspace shows pounds on its revenue KPI and in an explorer CSV export', async ({ page }) => {
  test.setTimeout(240_000);
  await openAcme(page);
  const northwind = await workspaceNamed(page, 'Northwind Travel');

  const dashboard = await reportPath(page, northwind, 'dashboard', `Pounds ${Date.now().toString(36)}`, {
    flags: ['grid_layout'],
    widgets: [
      {
        id: 'kpi',
        type: 'campaign_performance',
        title: 'Money',
        metrics: ['revenue', 'sent'],
        layout: { x: 0, y: 0, w: 24, h: 40 },
      },
    ],
  });
  await page.goto(dashboard);
  const revenue = widgetCard(page, 'Money').getByRole('tab').filter({ hasText: 'Revenue' });
  await expect(revenue).toContainText('£', { timeout: 120_000 });
  await expect(revenue).not.toContainText('€');

  const title = `Pounds export ${Date.now().toString(36)}`;
  await page.goto(
    await reportPath(page, northwind, 'explorer_view', title, {
      dataset: DATASET,
      columns: [{ colId: 'campaign_type', rowGroup: true }],
      valueColumns: ['revenue'],
    }),
  );
  await expect(page.getByText(/^Rows: [1-9]/)).toBeVisible({ timeout: 120_000 });
  await page.getByRole('button', { name: 'Export' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Export to CSV' }).click(),
  ]);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  const lines = csv.trimEnd().split(/\r?\n/);
  expect(lines[0]).toContain('Revenue');
  // Every campaign type's revenue in pounds, none in euros.
  expect(lines.slice(1).length).toBeGreaterThan(0);
  for (const line of lines.slice(1)) expect(line).toContain('£');
  expect(csv).not.toContain('€');
});

test('the filter form builds a metric filter and an outlier filter that change a widget’s numbers', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const acme = await openAcme(page);
  const rows = await campaignRows(page, acme);
  const days = rows.map((row) => row.day).sort();
  const [start, end] = [days[0], days[days.length - 1]];
  const title = 'Sent by type';
  await page.goto(
    await reportPath(page, acme, 'dashboard', `Filters ${Date.now().toString(36)}`, {
      flags: ['grid_layout'],
      dateRanges: { main: { start, end, preset: 'custom' } },
      widgets: [
        {
          id: 'table',
          type: 'table',
          title,
          dataset: DATASET,
          dimensions: ['campaign_type'],
          metrics: ['sent'],
          layout: { x: 0, y: 0, w: 24, h: 30 },
        },
      ],
    }),
  );
  const all = sentByType(rows, () => true);
  await expect.poll(() => shownSentByType(page, title), { timeout: 120_000 }).toEqual(all);

  const filterBar = page.getByRole('toolbar', { name: 'Dashboard filters' });
  const dialog = page.getByRole('dialog', { name: 'Dashboard filters' });
  await page.getByLabel('Edit or view').getByText('Edit', { exact: true }).click();

  // A metric filter: rows whose revenue is above the median row's.
  const revenues = rows
    .map((row) => row.revenue)
    .filter((value) => !Number.isNaN(value))
    .sort((a, b) => a - b);
  const threshold = Math.round(revenues[Math.floor(revenues.length / 2)]);
  await filterBar.getByRole('button', { name: 'Add filter' }).click();
  await dialog.getByLabel('Field').selectOption({ label: 'Revenue' });
  await dialog.getByLabel('Operator').selectOption('gt');
  await dialog.getByRole('textbox', { name: 'Value' }).fill(String(threshold));
  await dialog.getByRole('button', { name: 'Apply' }).click();
  const aboveThreshold = sentByType(rows, (row) => row.revenue > threshold);
  expect(aboveThreshold).not.toEqual(all);
  await expect.poll(() => shownSentByType(page, title), { timeout: 60_000 }).toEqual(aboveThreshold);
  await filterBar.getByRole('button', { name: 'Remove tag', exact: true }).click();
  await expect.poll(() => shownSentByType(page, title), { timeout: 60_000 }).toEqual(all);

  // An outlier filter at the default sensitivity (-2.0): rows above the mean plus two standard deviations.
  await filterBar.getByRole('button', { name: 'Add filter' }).click();
  await dialog.getByLabel('Field').selectOption({ label: 'Revenue' });
  await dialog.getByLabel('Operator').selectOption('outlierHigh');
  await expect(dialog.getByRole('slider', { name: 'Sensitivity' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Apply' }).click();
  const mean = revenues.reduce((sum, value) => sum + value, 0) / revenues.length;
  const deviation = Math.sqrt(revenues.reduce((sum, value) => sum + (value - mean) ** 2, 0) / revenues.length);
  const outliers = sentByType(rows, (row) => row.revenue > mean + 2 * deviation);
  expect(outliers).not.toEqual(all);
  await expect.poll(() => shownSentByType(page, title), { timeout: 60_000 }).toEqual(outliers);
});

test('the annotations badge counts the annotations of the report’s date range', async ({ page }) => {
  test.setTimeout(180_000);
  const acme = await openAcme(page);
  const note = await page.request.post(`/api/workspaces/${acme}/annotations`, {
    headers: API_HEADERS,
    data: { message: `Spring sale ${Date.now().toString(36)}`, date_start: '2002-05-10', date_end: '2002-05-12' },
  });
  expect(note.status()).toBe(201);
  // What the workspace holds, counted here: annotations overlapping a period.
  const all = (
    (await (await page.request.get(`/api/workspaces/${acme}/annotations`)).json()) as {
      data: { date_start: string; date_end: string }[];
    }
  ).data;
  const overlapping = (start: string, end: string) =>
    all.filter((annotation) => annotation.date_start <= end && annotation.date_end >= start).length;
  const may = overlapping('2002-05-01', '2002-05-31');
  const july = overlapping('2002-07-01', '2002-07-31');
  expect(may).toBeGreaterThan(july);

  await page.goto(
    await reportPath(page, acme, 'dashboard', `Annotated ${Date.now().toString(36)}`, {
      flags: ['grid_layout'],
      dateRanges: { main: { start: '2002-05-01', end: '2002-05-31', preset: 'custom' } },
      widgets: [],
    }),
  );
  await expect(page.getByRole('button', { name: `Annotations: ${may}` })).toBeVisible();

  await page.getByRole('button', { name: /^Custom:/ }).click();
  const picker = page.getByRole('dialog', { name: 'Date range picker' });
  await picker.getByLabel('From').fill('2002-07-01');
  await picker.getByLabel('To').fill('2002-07-31');
  await picker.getByLabel('To').press('Enter');
  await expect(page.getByRole('button', { name: `Annotations: ${july}` })).toBeVisible();
  await page.getByRole('button', { name: `Annotations: ${july}` }).click();
  if (july === 0)
    await expect(drawerNamed(page, 'Annotations').getByText('No annotations for this period')).toBeVisible();
});

test('a crashed widget’s Create ticket opens the feedback drawer prefilled with the widget and its error', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const acme = await openAcme(page);
  // An operator the engine does not know makes the high/low widget's query fail, which it throws to its boundary.
  await page.goto(
    await reportPath(page, acme, 'dashboard', `Ticket ${Date.now().toString(36)}`, {
      flags: ['grid_layout'],
      widgets: [
        {
          id: 'broken',
          type: 'high_low',
          title: 'Broken highs',
          dataset: DATASET,
          metrics: ['sent'],
          dimension: 'country',
          filters: [{ member: 'country', operator: 'sounds_like', values: ['NL'] }],
          layout: { x: 0, y: 0, w: 12, h: 30 },
        },
      ],
    }),
  );
  await widgetCard(page, 'Broken highs').getByRole('link', { name: 'Create ticket' }).click({ timeout: 120_000 });
  const drawer = drawerNamed(page, 'Feedback');
  await expect(drawer).toBeVisible();
  const message = drawer.getByRole('textbox', { name: 'Your feedback' });
  await expect(message).toHaveValue(/^Widget: Broken highs.*\nError: .+/);
});
