import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../scripts/chromium';
import { workspaceDatasetDir } from '../server/datasets/generate';
import { datasetFile } from '../server/services/datasets';
import { buildKnownProjections } from '../server/services/projectedDatasets';
import { brotliCopiesWritten } from '../server/services/scopedFiles';
import { getCatalogueDataset, toDatasetSchema } from '../src/contracts/catalogue';
import { ENGINE_QUERY_MEASURE } from '../src/workers/pool';

/** What the browser benchmarks share: the production server, the demo user's session, the engine's timeline. */

export const API_HEADERS = { 'X-Requested-With': 'openrate' };
const DEMO_EMAIL = 'demo@example.com';

export const launchOptions = {
  executablePath: chromiumPath,
  args: [
    // performance.memory in whole bytes rather than coarse buckets.
    '--enable-precise-memory-info',
    ...chromiumArgs,
  ],
};

export { startServer, stopServer } from './benchServer';

/** Signs the demo user in through the e-mail code of the development outbox; answers the session cookies. */
export async function signIn(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Continue with Email' }).click();
  await page.getByLabel('Email address').fill(DEMO_EMAIL);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor({ timeout: 60_000 });
  let code: string | null = null;
  while (!code) {
    const outbox = (await (await page.request.get(`/api/dev/outbox?to=${DEMO_EMAIL}`)).json()) as {
      data: { code: string | null }[];
    };
    code = outbox.data.find((message) => message.code)?.code ?? null;
  }
  await page.getByLabel('Code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/workspaces\/\d+/);
  const state = await context.storageState();
  await context.close();
  return state;
}

/** The engine's time for the queries run since `since`: from the first start to the last end. */
export async function engineSpan(
  page: Page,
  since: number,
): Promise<{ spanMs: number; queries: number; firstStart: number; lastEnd: number; durations: number[] }> {
  return page.evaluate(
    ({ name, since }) => {
      const entries = performance.getEntriesByName(name).filter((entry) => entry.startTime >= since);
      if (!entries.length) return { spanMs: 0, queries: 0, firstStart: since, lastEnd: since, durations: [] };
      const first = Math.min(...entries.map((entry) => entry.startTime));
      const lastEnd = Math.max(...entries.map((entry) => entry.startTime + entry.duration));
      const durations = entries.map((entry) => entry.duration);
      return { spanMs: lastEnd - first, queries: entries.length, firstStart: first, lastEnd, durations };
    },
    { name: ENGINE_QUERY_MEASURE, since },
  );
}

/**
 * The demo workspace Acme Retail reading the benchmark's rows (the server serves a manifest it finds and does
 * not regenerate it), with the getting-started drawer off; answers its id.
 */
export async function benchWorkspace(request: APIRequestContext, dataDir: string, sourceDir: string) {
  const me = (await (await request.get('/api/me')).json()) as { workspaces: { id: number; name: string }[] };
  const workspace = me.workspaces.find((candidate) => candidate.name === 'Acme Retail');
  if (!workspace) throw new Error('The demo workspace Acme Retail is missing');
  // The server generates this workspace's demo files as it starts (server/main.ts): a download waits for them, then
  // the benchmark's rows take their place.
  await request.get(`/api/workspaces/${workspace.id}/datasets/campaign_metrics_by_send_date`, { headers: API_HEADERS });
  linkSource(dataDir, workspace.id, sourceDir);

  // The getting-started drawer would cover part of the screenshots.
  await request.patch('/api/me', { headers: API_HEADERS, data: { showGettingStarted: false } });
  return workspace.id;
}

/** The workspace's datasets become the files in `sourceDir` (a link: the benchmark's rows are generated once). */
function linkSource(dataDir: string, workspaceId: number, sourceDir: string) {
  fs.rmSync(workspaceDatasetDir(dataDir, workspaceId), { recursive: true, force: true });
  fs.mkdirSync(path.join(dataDir, 'datasets'), { recursive: true });
  fs.symlinkSync(sourceDir, workspaceDatasetDir(dataDir, workspaceId), 'dir');
}

/**
 * The workspace's datasets become the files in `sourceDir`, as a finished import makes new ones: the column sets
 * dashboards asked for before are built for the new files (`datasets.build-projections`, in this process on the
 * server's data directory), brotli copies included, before this resolves.
 */
export async function importBenchSource(dataDir: string, workspaceId: number, sourceDir: string, datasetId: string) {
  linkSource(dataDir, workspaceId, sourceDir);
  const dataset = getCatalogueDataset(datasetId);
  if (!dataset) throw new Error(`No dataset ${datasetId} in the catalogue`);
  const source = await datasetFile(dataDir, workspaceId, datasetId);
  await buildKnownProjections(dataDir, workspaceId, datasetId, toDatasetSchema(dataset).tableId, source, (error) => {
    throw error;
  });
  await brotliCopiesWritten();
}

/**
 * A page script noting when the next `type` event reaches the page, before any of its handlers runs (capture on the
 * window); `eventTime` reads it back. The time a user's action starts, without Playwright's checks before it.
 */
export const watchEvent = (type: string) =>
  `window.addEventListener(${JSON.stringify(type)}, () => (window.benchEventAt = performance.now()), { capture: true, once: true })`;

export const eventTime = (page: Page) =>
  page.evaluate(() => (window as unknown as { benchEventAt: number }).benchEventAt);

/**
 * Page-side source of `(holds, timeoutMs, what) => Promise<number>`: resolves with the page's clock when `holds()`
 * first returns true. Checked at once, then after every DOM change that can make it hold (nodes, text, a widget's
 * `aria-busy`), every new performance mark or measure, and every 250 ms; never in animation frames. A check in every
 * frame (as Playwright's `waitForFunction` with its default `raf` polling does) makes the page produce a frame 60 times
 * a second through the whole wait, each restyling the spinners whose rotation the compositor runs otherwise without
 * the page's thread, which no user's page does (bench/README.md, "The benchmark drew frames no user's page draws").
 * A string: tsx would wrap named functions in a helper the page does not have.
 */
export const WAIT_IN_PAGE = `((holds, timeoutMs, what) =>
  new Promise((resolve, reject) => {
    const watch = { mutations: undefined, entries: undefined, timer: 0, timeout: 0 };
    const stop = () => {
      watch.mutations.disconnect();
      watch.entries.disconnect();
      clearInterval(watch.timer);
      clearTimeout(watch.timeout);
    };
    const check = () => {
      if (!holds()) return;
      stop();
      resolve(performance.now());
    };
    watch.mutations = new MutationObserver(check);
    watch.entries = new PerformanceObserver(check);
    watch.timer = setInterval(check, 250);
    watch.timeout = setTimeout(() => {
      stop();
      reject(new Error('Timed out waiting for ' + what));
    }, timeoutMs);
    watch.mutations.observe(document, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['aria-busy'],
    });
    watch.entries.observe({ entryTypes: ['mark', 'measure'] });
    check();
  }))`;
