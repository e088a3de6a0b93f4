import { type Page, expect, test } from '@playwright/test';
import { openAcme, reportPathByTitle } from './support';

/**
 * A dashboard in view mode downloads only the columns its widgets read and the rows of the days they read (issue 20),
 * as a DuckDB file the engine attaches; edit mode, where any field may be added, loads the whole dataset as Arrow, and
 * every widget shows the same numbers from it.
 */

interface DatasetRequest {
  path: string;
  columns: string[] | null;
  format: string | null;
  since: string | null;
}

/** The dataset file requests of the page (not the schema calls), with the columns each names. */
function watchDatasets(page: Page): DatasetRequest[] {
  const seen: DatasetRequest[] = [];
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (!/^\/api\/workspaces\/\d+\/datasets\/[^/]+$/.test(url.pathname) || url.searchParams.has('schema')) return;
    if (url.pathname.includes('/datasets/campaigns/')) return;
    const columns = url.searchParams.get('columns');
    seen.push({
      path: url.pathname,
      columns: columns === null ? null : columns.split(','),
      format: url.searchParams.get('format'),
      since: url.searchParams.get('since'),
    });
  });
  return seen;
}

/** Every widget's numbers once none is loading or failing: the numbers of each card's text, in order. */
async function widgetNumbers(page: Page): Promise<string[][]> {
  const cards = page.locator('[data-widget-id]');
  await expect(cards.first()).toBeVisible({ timeout: 120_000 });
  await expect(page.locator('[data-widget-id] [aria-busy="true"]')).toHaveCount(0, { timeout: 120_000 });
  await expect(page.locator('[data-widget-id] [role="alert"]')).toHaveCount(0);
  const texts = await cards.allInnerTexts();
  return texts.map((text) => text.match(/-?\d[\d.,]*%?/g) ?? []);
}

/** How many dataset loads into a worker the page's timeline holds, and when the last one and the last query began. */
const engineTimes = (page: Page) =>
  page.evaluate(() => {
    const inserts = performance.getEntriesByName('openrate:dataset-insert');
    const starts = (name: string) => performance.getEntriesByName(name).map((entry) => entry.startTime);
    return {
      inserts: inserts.length,
      insert: Math.max(-1, ...starts('openrate:dataset-insert')),
      query: Math.max(-1, ...starts('openrate:engine-query')),
    };
  });

test('the demo dashboard asks for its columns only, and shows the numbers of the whole dataset', async ({ page }) => {
  test.setTimeout(300_000);
  const workspaceId = await openAcme(page);
  const datasets = watchDatasets(page);
  await page.goto(await reportPathByTitle(page, workspaceId, 'Default Dashboard'));
  const viewed = await widgetNumbers(page);
  expect(viewed.flat().length).toBeGreaterThan(0);

  // Every dataset file of the view open names its columns, fewer than the dataset's fields, and is a DuckDB file.
  await expect.poll(() => datasets.length).toBeGreaterThan(0);
  const projected = [...datasets];
  for (const request of projected) {
    expect(request.columns).not.toBeNull();
    expect(request.format).toBe('duckdb');
    const schema = await page.request.get(`${request.path}?schema=true`);
    const fields = ((await schema.json()) as { fields: { id: string }[] }).fields.map((field) => field.id);
    expect(request.columns!.every((id) => fields.includes(id))).toBe(true);
    expect(request.columns!.length).toBeLessThan(fields.length);
  }
  // The widgets' dataset comes with the rows of their days only: from the first of the month of the comparison's
  // start (the last 30 days and the 30 before them).
  const since = projected.find((request) => request.path.endsWith('/campaign_metrics_by_send_date'))?.since;
  expect(since).toMatch(/^\d{4}-\d{2}-01$/);
  const daysBack = (Date.now() - Date.parse(`${since}T00:00:00Z`)) / 86_400_000;
  expect(daysBack).toBeGreaterThanOrEqual(59);
  expect(daysBack).toBeLessThan(93);

  // A range reaching further back (the last 90 days and the 90 before them) loads the rows from an earlier month
  // on, still the dashboard's columns; edit mode's whole file below gives the same numbers for it.
  await page.locator('.or-range-button').click();
  await page.getByRole('menuitem', { name: 'Last 90 days' }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect.poll(() => datasets.length, { timeout: 120_000 }).toBeGreaterThan(projected.length);
  const longer = datasets.at(-1)!;
  expect(longer.columns).not.toBeNull();
  expect(longer.since! < since!).toBe(true);
  // The KPI card's numbers: the chart's axis labels depend on its width, which edit mode's palette changes.
  const [viewedLonger] = await widgetNumbers(page);
  expect(viewedLonger).not.toEqual(viewed[0]);
  const viewRequests = datasets.length;

  // Edit mode lets the user add any field: the whole files are loaded, and the widgets compute from them.
  const before = await engineTimes(page);
  await page.getByLabel('Edit or view').getByText('Edit', { exact: true }).click();
  const whole = () => datasets.slice(viewRequests).filter((request) => request.columns === null);
  await expect
    .poll(
      () =>
        whole()
          .map((request) => request.path)
          .sort(),
      { timeout: 120_000 },
    )
    .toEqual([...new Set(projected.map((request) => request.path))].sort());
  // The numbers shown come from queries run after the whole file was loaded into the engine.
  await expect
    .poll(
      async () => {
        const { inserts, insert, query } = await engineTimes(page);
        return inserts > before.inserts && query > insert;
      },
      { timeout: 120_000 },
    )
    .toBe(true);
  await expect.poll(async () => (await widgetNumbers(page))[0], { timeout: 120_000 }).toEqual(viewedLonger);
  // And the first range's numbers, every card's, as the view showed them from the file of its days.
  await page.locator('.or-range-button').click();
  await page.getByRole('menuitem', { name: 'Last 30 days' }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect.poll(() => widgetNumbers(page), { timeout: 120_000 }).toEqual(viewed);
});
