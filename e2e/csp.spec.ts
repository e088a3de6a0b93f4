import { expect, test, type Page } from '@playwright/test';
import { WORKER_SPAN_PREFIX, workerSpans } from '../src/workers/timeline';
import { createReport, openAcme } from './support';

interface Violation {
  directive: string;
  blocked: string;
  source: string;
}

declare global {
  interface Window {
    cspViolations: Violation[];
  }
}

/** Records every CSP violation the page reports, from before its first script runs. */
async function recordViolations(page: Page, consoleErrors: string[]) {
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations.push({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${event.lineNumber}`,
      });
    });
  });
  // The DuckDB workers report their own violations only to the console.
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) consoleErrors.push(message.text());
  });
}

/** Creates a grid dashboard of `widgets` in the workspace; answers its address. */
async function newDashboard(page: Page, workspaceId: number, name: string, widgets: unknown[]): Promise<string> {
  const title = `${name} ${Date.now().toString(36)}`;
  return (await createReport(page, workspaceId, 'dashboard', title, { flags: ['grid_layout'], widgets })).path;
}

test('the Content-Security-Policy breaks nothing: DuckDB workers, plotly, a table, rich text with media', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1600, height: 1000 });
  const consoleErrors: string[] = [];
  await recordViolations(page, consoleErrors);
  // Icons outside the first load come one by one from the build's icon files (src/app/icons.ts).
  const iconResponses: number[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/icons/')) iconResponses.push(response.status());
  });
  const workspaceId = await openAcme(page);

  const dataset = 'campaign_metrics_by_send_date';
  const widgets = [
    {
      id: 'csp-text',
      type: 'rich_text',
      content:
        '<h2 style="text-align: center">Policy notes</h2><p>Below, an image and a video.</p>' +
        '<img src="https://images.example.com/banner.png" width="320">' +
        '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>',
      layout: { x: 0, y: 0, w: 24, h: 20 },
    },
    {
      id: 'csp-graph',
      type: 'graph',
      title: 'Sent per day',
      dataset,
      metrics: ['sent'],
      layout: { x: 0, y: 20, w: 12, h: 22 },
    },
    {
      id: 'csp-table',
      type: 'table',
      title: 'Per country',
      dataset,
      metrics: ['sent'],
      dimensions: ['country'],
      layout: { x: 12, y: 20, w: 12, h: 22 },
    },
  ];
  const response = await page.goto(await newDashboard(page, workspaceId, 'CSP', widgets));
  // The policy really is on the page (and not relaxed for JavaScript eval).
  const policy = response?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(policy).not.toContain("'unsafe-eval'");

  const canvas = page.locator('.or-dashboard-canvas');
  await expect(canvas.getByRole('heading', { name: 'Policy notes' })).toBeVisible();
  await expect(canvas.locator('img[src="https://images.example.com/banner.png"]')).toHaveCount(1);
  await expect(canvas.locator('iframe[src="https://www.youtube.com/embed/dQw4w9WgXcQ"]')).toHaveCount(1);
  // Both data widgets are computed by DuckDB-WASM in the workers; plotly draws the graph.
  const graph = canvas.getByRole('region', { name: 'Sent per day', exact: true });
  await expect(graph.locator('.js-plotly-plot .scatterlayer path.js-line').first()).toBeVisible({ timeout: 120_000 });
  const table = canvas.getByRole('region', { name: 'Per country', exact: true });
  await expect(table.getByRole('columnheader', { name: 'Sent' })).toBeVisible({ timeout: 120_000 });
  await expect(table.getByRole('cell').first()).toBeVisible();
  // The one chart is the graph's: plotly's warm-up, drawn off-screen before it if the page was idle, left nothing.
  await expect(page.locator('.js-plotly-plot')).toHaveCount(1);

  // Every icon on the page is drawn: none is left as the placeholder Blueprint shows until its paths arrive.
  expect(iconResponses.length).toBeGreaterThan(0);
  expect(iconResponses.every((status) => status === 200)).toBe(true);
  await expect(page.locator('.bp6-icon[data-icon]:not(svg)')).toHaveCount(0);
  await expect(page.locator('svg[data-icon]').first()).toBeVisible();

  expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
  expect(consoleErrors).toEqual([]);

  // The recorder can fail: an injected inline script (what an XSS would add) is refused and reported.
  await page.evaluate(() => {
    const script = document.createElement('script');
    script.textContent = 'window.injectedScriptRan = true';
    document.body.append(script);
  });
  await expect
    .poll(() => page.evaluate(() => window.cspViolations.map((v) => v.directive)))
    .toEqual(['script-src-elem']);
  expect(await page.evaluate(() => (window as { injectedScriptRan?: boolean }).injectedScriptRan)).toBeUndefined();
});

test("a dashboard's DuckDB worker warms up under the Content-Security-Policy while it waits for data", async ({
  page,
}) => {
  test.setTimeout(300_000);
  const consoleErrors: string[] = [];
  await recordViolations(page, consoleErrors);
  const workspaceId = await openAcme(page);
  // Text only: the engine starts with the dashboard, and no dataset or query ever stops its warm-up.
  const widgets = [{ id: 'note', type: 'rich_text', content: '<p>Notes</p>', layout: { x: 0, y: 0, w: 24, h: 10 } }];
  await page.goto(await newDashboard(page, workspaceId, 'Warm-up', widgets));
  await expect(page.locator('.or-dashboard-canvas').getByText('Notes')).toBeVisible();

  // Its statements all ran in the worker: a refused one (Arrow's builders generate code) would be named here.
  const warmUps = () =>
    Promise.all(
      page
        .workers()
        .map((worker) =>
          worker
            .evaluate(
              (name) => performance.getEntriesByName(name).map((entry) => (entry as PerformanceMeasure).detail),
              `${WORKER_SPAN_PREFIX}${workerSpans.warmUp}`,
            )
            .catch(() => []),
        ),
    ).then((found) => found.flat());
  await expect.poll(warmUps, { timeout: 120_000 }).toEqual([{ stopped: false }]);
  expect(await page.evaluate(() => window.cspViolations)).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
