import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { workspaceDatasetDir } from '../server/datasets/generate';
import { createReport, drawerNamed, openAcme } from './support';

const SCREENSHOTS = path.resolve('bench/out');

interface SavedWidget {
  id: string;
  type: string;
  layout?: { x: number; y: number; w: number; h: number };
}

async function savedWidgets(page: Page, workspaceId: number, reportId: number): Promise<SavedWidget[]> {
  const response = await page.request.get(`/api/workspaces/${workspaceId}/reports/dashboard/${reportId}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { data: { config: { widgets: SavedWidget[] } } }).data.config.widgets;
}

const widgetCard = (page: Page, title: string) =>
  page.locator('.or-dashboard-canvas').getByRole('region', { name: title, exact: true });

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

/** Each drop opens the configure drawer; these tests check the canvas, so they close it. */
async function closeConfigureDrawer(page: Page) {
  await drawerNamed(page, 'Configure widget').getByRole('button', { name: 'Close' }).click();
  await expect(page).not.toHaveURL(/drawer\.type=/);
}

/** A pointer drag in small steps, as react-grid-layout follows mouse moves. */
async function pointerDrag(page: Page, from: { x: number; y: number }, by: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + by.x / 2, from.y + by.y / 2, { steps: 8 });
  await page.mouse.move(from.x + by.x, from.y + by.y, { steps: 8 });
  await page.mouse.up();
}

test('build a grid dashboard from the palette, move and resize, save, reload and find the same layout', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  const workspaceId = await openAcme(page);
  const title = `Canvas ${Date.now().toString(36)}`;
  const empty = { flags: ['grid_layout'], widgets: [] };
  const { id: reportId, path: address } = await createReport(page, workspaceId, 'dashboard', title, empty);

  await page.goto(address);
  await expect(page.getByText('Drop widgets here')).toBeVisible();
  await page.getByLabel('Edit or view').getByText('Edit', { exact: true }).click();
  const canvas = page.locator('.or-dashboard-canvas');
  await expect(canvas.getByText('Drag & Drop your first widget here')).toBeVisible();
  const palette = page.getByRole('complementary', { name: 'Editing drawer' });
  await expect(palette.getByText('Drag & drop widget(s) into the dashboard')).toBeVisible();
  for (const absent of ['Graph', 'List', 'Text']) {
    await expect(palette.getByRole('button', { name: absent, exact: true })).toHaveCount(0);
  }

  // The first tile lands on the empty canvas; it is selected and its configure drawer opens.
  await palette.getByRole('button', { name: 'KPI overview' }).dragTo(canvas, { targetPosition: { x: 40, y: 40 } });
  await expect(widgetCard(page, 'KPI overview')).toBeVisible();
  await expect(widgetCard(page, 'KPI overview')).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/drawer\.type=configure-dashboard-widget/);
  await closeConfigureDrawer(page);

  // The next ones land on the drop line below the previous widget.
  await palette.getByRole('button', { name: 'Back to the palette' }).click();
  const kpiBox = await box(widgetCard(page, 'KPI overview'));
  await palette.getByRole('button', { name: 'Funnel' }).dragTo(widgetCard(page, 'KPI overview'), {
    targetPosition: { x: 60, y: kpiBox.height - 10 },
  });
  await expect(widgetCard(page, 'Funnel')).toBeVisible();
  await closeConfigureDrawer(page);
  await palette.getByRole('button', { name: 'Back to the palette' }).click();
  const funnelBox = await box(widgetCard(page, 'Funnel'));
  await palette.getByRole('button', { name: 'Table' }).dragTo(widgetCard(page, 'Funnel'), {
    targetPosition: { x: 60, y: funnelBox.height - 10 },
  });
  await expect(widgetCard(page, 'Table')).toBeVisible();
  await closeConfigureDrawer(page);
  await expect.poll(async () => (await widgetCard(page, 'Table').boundingBox())?.y ?? 0).toBeGreaterThan(funnelBox.y);
  // The rest of the palette by click (the keyboard's way in): each lands at the bottom, selected, configure open.
  for (const type of ['High & low', 'Subscriber growth']) {
    await palette.getByRole('button', { name: 'Back to the palette' }).click();
    await palette.getByRole('button', { name: type }).click();
    await expect(widgetCard(page, type)).toBeVisible();
    await expect(widgetCard(page, type)).toHaveAttribute('aria-selected', 'true');
    await closeConfigureDrawer(page);
  }

  // Resize the funnel from its bottom-right corner, then move it to the right by its header.
  const funnel = widgetCard(page, 'Funnel');
  const before = await box(funnel);
  const corner = page
    .locator('.react-grid-item')
    .filter({ has: page.getByRole('region', { name: 'Funnel', exact: true }) })
    .locator('.react-resizable-handle-se');
  await funnel.hover();
  const cornerBox = await box(corner);
  await pointerDrag(
    page,
    { x: cornerBox.x + cornerBox.width / 2, y: cornerBox.y + cornerBox.height / 2 },
    { x: 230, y: 120 },
  );
  await expect.poll(async () => (await box(funnel)).width).toBeGreaterThan(before.width + 150);
  const resized = await box(funnel);
  expect(resized.height).toBeGreaterThan(before.height + 80);
  const header = funnel.locator('header');
  const headerBox = await box(header);
  await pointerDrag(page, { x: headerBox.x + 30, y: headerBox.y + headerBox.height / 2 }, { x: 400, y: 0 });
  await expect.poll(async () => (await box(funnel)).x).toBeGreaterThan(resized.x + 300);

  // A global filter applies to every widget; removing its chip brings the numbers back.
  const table = widgetCard(page, 'Table');
  // Datasets older than 30 s download again when widgets re-render, which can take a while on a busy machine.
  await expect(table.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 60_000 });
  const unfiltered = await table.innerText();
  const filterBar = page.getByRole('toolbar', { name: 'Dashboard filters' });
  await filterBar.getByRole('button', { name: 'Add filter' }).click();
  const dialog = page.getByRole('dialog', { name: 'Dashboard filters' });
  await dialog.getByLabel('Field').selectOption({ label: 'Campaign name' });
  await dialog.getByLabel('Operator').selectOption({ label: 'Is empty' });
  await dialog.getByRole('button', { name: 'Apply' }).click();
  const chip = filterBar.getByText('Campaign name Is empty');
  await expect(chip).toBeVisible();
  await expect.poll(() => table.innerText(), { timeout: 60_000 }).not.toBe(unfiltered);
  await filterBar.getByRole('button', { name: 'Remove tag', exact: true }).click();
  await expect(chip).toHaveCount(0);
  await expect.poll(() => table.innerText(), { timeout: 60_000 }).toBe(unfiltered);

  const onScreen = async () => ({
    kpi: await box(widgetCard(page, 'KPI overview')),
    funnel: await box(widgetCard(page, 'Funnel')),
    table: await box(widgetCard(page, 'Table')),
  });
  const layoutBeforeSave = await onScreen();

  const saved = page.waitForResponse(
    (response) => response.url().includes(`/reports/dashboard/${reportId}`) && response.request().method() === 'PUT',
  );
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  expect((await saved).ok()).toBe(true);
  const widgets = await savedWidgets(page, workspaceId, reportId);
  expect(widgets.map((widget) => widget.type).sort()).toEqual([
    'campaign_performance',
    'funnel',
    'high_low',
    'subscriber_growth',
    'table',
  ]);
  const savedFunnel = widgets.find((widget) => widget.type === 'funnel')?.layout;
  expect(savedFunnel?.w).toBeGreaterThan(12);
  expect(savedFunnel?.x).toBeGreaterThan(0);

  await page.reload();
  await expect(widgetCard(page, 'Funnel')).toBeVisible();
  // Compared in edit mode again: the editing drawer takes 240 px of the canvas's width.
  await page.getByLabel('Edit or view').getByText('Edit', { exact: true }).click();
  await expect(page.getByRole('complementary', { name: 'Editing drawer' })).toBeVisible();
  // The grid follows its container's width after a 300 ms resize debounce, so the comparison is polled.
  const largestShift = async () => {
    const now = await onScreen();
    return Math.max(
      ...(['kpi', 'funnel', 'table'] as const).flatMap((name) =>
        (['x', 'y', 'width', 'height'] as const).map((side) =>
          Math.abs(now[name][side] - layoutBeforeSave[name][side]),
        ),
      ),
    );
  };
  await expect.poll(largestShift).toBeLessThan(2);

  // Screenshots of the full dashboard for the closing note (not committed), once every widget has its numbers.
  await page.getByLabel('Edit or view').getByText('View', { exact: true }).click();
  const settled = async () => {
    await expect(widgetCard(page, 'Table')).toBeVisible();
    // After a reload the dataset downloads again before the widgets show numbers.
    await expect(canvas.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 60_000 });
  };
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await settled();
  // Every widget type shows its content, none an error.
  await expect(canvas.locator('[data-widget-id]')).toHaveCount(5);
  await expect(canvas.locator('[data-widget-id] [role="alert"]')).toHaveCount(0);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-light.png'), fullPage: true });
  await page.evaluate(() => window.localStorage.setItem('darkMode', 'dark'));
  await page.reload();
  await expect(page.locator('body')).toHaveClass(/bp6-dark/);
  await settled();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-dark.png'), fullPage: true });
  await page.evaluate(() => window.localStorage.removeItem('darkMode'));
});

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The days of the range the picker's button shows ('Last 7 days: 15 Nov 2026 – 21 Nov 2026'). */
function shownRange(label: string): { start: string; end: string } {
  const days = [...label.matchAll(/(\d{1,2}) ([A-Z][a-z]{2}) (\d{4})/g)].map(
    ([, day, month, year]) => `${year}-${String(MONTHS.indexOf(month) + 1).padStart(2, '0')}-${day.padStart(2, '0')}`,
  );
  expect(days).toHaveLength(2);
  return { start: days[0], end: days[1] };
}

/** A new dashboard of one widget in Acme Retail, without a comparison, opened in `page`; its workspace's id. */
async function openNewDashboard(page: Page, name: string, widget: object): Promise<number> {
  const workspaceId = await openAcme(page);
  const config = { flags: ['grid_layout'], widgets: [widget], dateRanges: { compare: { preset: 'disabled' } } };
  const { path: address } = await createReport(
    page,
    workspaceId,
    'dashboard',
    `${name} ${Date.now().toString(36)}`,
    config,
  );
  await page.goto(address);
  return workspaceId;
}

/**
 * A dashboard of one card, the sum of Sent over its range, opened in `page`; and that sum computed apart from the
 * product, by native DuckDB over the Parquet file the server keeps, as the card shows it.
 */
async function sentCard(page: Page) {
  const workspaceId = await openNewDashboard(page, 'Dates', {
    id: 'sent-card',
    type: 'campaign_performance',
    title: 'Sent',
    dataset: 'campaign_metrics_by_send_date',
    metrics: ['sent'],
    visualizationSettings: { display: { type: 'card' } },
    layout: { x: 0, y: 0, w: 8, h: 8 },
  });
  const value = widgetCard(page, 'Sent').locator('.or-kpi-value');
  await expect(value).toBeVisible({ timeout: 120_000 });

  const parquet = path.join(
    workspaceDatasetDir(process.env.E2E_DATA_DIR ?? './var/e2e', workspaceId),
    'campaign_metrics_by_send_date.parquet',
  );
  const duckdb = await (await DuckDBInstance.create(':memory:')).connect();
  const expected = async ({ start, end }: { start: string; end: string }) => {
    const reader = await duckdb.runAndReadAll(
      `SELECT COALESCE(SUM(sent), 0)::DOUBLE AS total FROM read_parquet('${parquet.replace(/'/g, "''")}')
       WHERE send_date BETWEEN DATE '${start}' AND DATE '${end}'`,
    );
    // Acme Retail's locale is nl_NL: dots group the thousands.
    return new Intl.NumberFormat('nl-NL', { maximumFractionDigits: 3 }).format(Number(reader.getRows()[0][0]));
  };
  return { value, expected, close: () => duckdb.closeSync() };
}

/** Picks a preset in the range picker and applies it. */
async function pickRange(page: Page, preset: string) {
  await page.locator('.or-range-button').click();
  await page.getByRole('menuitem', { name: preset }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
}

test('ten quick date changes never show a number of another range', async ({ page }) => {
  test.setTimeout(300_000);
  const { value, expected, close } = await sentCard(page);

  const button = page.locator('.or-range-button');
  const presets = [
    'Last 7 days',
    'Last 14 days',
    'This month',
    'Last 28 days',
    'Last month',
    'Last 90 days',
    'This week',
    'Last quarter',
    'Last week',
    'Last 30 days',
  ];
  // Every (range shown, number shown) pair the page ever displays, recorded by the page itself as it changes.
  await page.evaluate(() => {
    const seen: [string, string][] = [];
    (window as unknown as { seenPairs: [string, string][] }).seenPairs = seen;
    const record = () => {
      const shown = document.querySelector('[data-widget-id] .or-kpi-value')?.textContent;
      const label = document.querySelector('.or-range-button')?.textContent;
      if (shown && label && seen.at(-1)?.join() !== [label, shown].join()) seen.push([label, shown]);
    };
    record();
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  for (const preset of presets) await pickRange(page, preset);
  const last = shownRange(await button.innerText());
  await expect(value).toHaveText(await expected(last), { timeout: 120_000 });
  const pairs = await page.evaluate(() => (window as unknown as { seenPairs: [string, string][] }).seenPairs);
  // At least the first range's number and the last one's.
  expect(pairs.length).toBeGreaterThanOrEqual(2);
  for (const [label, shown] of pairs)
    expect(`${label}: ${shown}`).toBe(`${label}: ${await expected(shownRange(label))}`);
  close();
});

test("a graph of two metrics names them in its legend and lists the hovered day's values in its tooltip", async ({
  page,
}) => {
  await openNewDashboard(page, 'Graph', {
    id: 'two-metrics',
    type: 'graph',
    title: 'Sent and revenue',
    dataset: 'campaign_metrics_by_send_date',
    metrics: ['sent', 'revenue'],
    layout: { x: 0, y: 0, w: 24, h: 22 },
  });

  const graph = widgetCard(page, 'Sent and revenue');
  await expect(graph.locator('.js-plotly-plot .scatterlayer path.js-line')).toHaveCount(2, { timeout: 120_000 });
  await expect(graph.locator('.legend .legendtext')).toHaveText(['Sent', 'Revenue']);

  // The pointer over the plot's middle: the app's tooltip shows that day and both metrics' values.
  const plotArea = await box(graph.locator('.nsewdrag').first());
  await page.mouse.move(plotArea.x + plotArea.width / 2, plotArea.y + plotArea.height / 2);
  const tooltip = graph.getByRole('tooltip');
  await expect(tooltip).toBeVisible();
  await expect(tooltip.locator('.or-graph-tooltip-title')).toHaveText(/\d{4}/);
  const names = tooltip.locator('.or-graph-tooltip-name');
  await expect(names).toHaveCount(2);
  expect((await names.allInnerTexts()).sort()).toEqual(['Revenue', 'Sent']);
  await page.mouse.move(plotArea.x - 40, plotArea.y - 40);
  await expect(tooltip).toBeHidden();
});

/** Tells the page it is hidden or in view, as the browser does when the user switches tabs (headless never does). */
async function showTab(page: Page, state: 'hidden' | 'visible') {
  await page.evaluate((visibility) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
}

test('a tab hidden for five minutes ends its DuckDB workers and keeps its numbers; back in view, a date change is answered right', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.clock.install();
  const { value, expected, close } = await sentCard(page);
  const shown = await value.innerText();
  const button = page.locator('.or-range-button');
  expect(shown).toBe(await expected(shownRange(await button.innerText())));
  const engineWorkers = () =>
    page.workers().filter((worker) => /\/duckdb(-compile)?\.[0-9a-f]+\.js$/.test(worker.url()));
  await expect.poll(() => engineWorkers().length, { timeout: 60_000 }).toBeGreaterThan(0);

  await showTab(page, 'hidden');
  await page.clock.fastForward('04:00');
  expect(engineWorkers().length).toBeGreaterThan(0);
  await page.clock.fastForward('01:01');
  // An engine still busy then (loading a dataset) is tried again a minute later.
  await expect
    .poll(
      async () => {
        const left = engineWorkers().length;
        if (left > 0) await page.clock.fastForward('01:00');
        return left;
      },
      { timeout: 60_000 },
    )
    .toBe(0);
  await expect(value).toHaveText(shown);
  // The page let go of the downloaded file too: the browser keeps a copy (Cache Storage), read when a worker needs it.
  await page.evaluate(() => {
    const counted = window as unknown as { keptReads: number };
    counted.keptReads = 0;
    const match = Cache.prototype.match;
    Cache.prototype.match = function (...args: Parameters<Cache['match']>) {
      counted.keptReads += 1;
      return match.apply(this, args);
    };
  });
  const keptReads = () => page.evaluate(() => (window as unknown as { keptReads: number }).keptReads);

  await showTab(page, 'visible');
  await expect.poll(() => engineWorkers().length, { timeout: 60_000 }).toBeGreaterThan(0);
  // The new worker loads what the ended ones held, from that copy, before any date change.
  await expect.poll(keptReads, { timeout: 60_000 }).toBe(1);
  await pickRange(page, 'Last 7 days');
  await expect(button).toContainText('Last 7 days');
  await expect(value).toHaveText(await expected(shownRange(await button.innerText())), { timeout: 120_000 });
  await expect(page.locator('[data-widget-id] [role="alert"]')).toHaveCount(0);
  close();
});
