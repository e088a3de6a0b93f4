import { type Page } from '@playwright/test';
import { SHED_HIDDEN_MS } from '../src/workers/hiddenTab';
import { eventTime, watchEvent } from './browser';
import { tabResidentBytes } from './pageFaults';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks `done` every 250 ms, for a minute at most. */
async function until(done: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let waited = 0; !(await done()); waited += 250) {
    if (waited > 60_000) throw new Error(`Waited a minute for ${what}`);
    await sleep(250);
  }
}

/** Tells the page it is hidden or in view, as the browser does when the user switches tabs (headless never does). */
function showTab(page: Page, state: DocumentVisibilityState): Promise<void> {
  return page.evaluate(
    `Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => '${state}' });
     document.dispatchEvent(new Event('visibilitychange'))`,
  );
}

/**
 * Applies a date range preset and answers the page's time from the Apply click to every widget drawn again. Every
 * widget shows loading in the commit that applies the range; the wait for all drawn starts once one does, so an
 * answer quicker than the benchmark's next look still counts. Needs WATCH_WIDGETS (dashboard.ts); reads no
 * performance entries, so it times on Playwright's clock too.
 */
async function timedDateChange(page: Page, preset: string, widgets: number): Promise<number> {
  await page.locator('.or-range-button').click({ timeout: 60_000 });
  await page.getByRole('menuitem', { name: preset }).click({ timeout: 60_000 });
  await page.evaluate(
    `window.benchRangeDrawn = new Promise((resolve, reject) => {
       setTimeout(() => reject(new Error('No widget showed loading')), 120000);
       const watch = new MutationObserver(() => {
         if (!document.querySelector('[data-widget-id] [aria-busy="true"]')) return;
         watch.disconnect();
         window.benchUntil({ kind: 'rendered', widgets: ${widgets} }, 120000).then(resolve, reject);
       });
       watch.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
     });
     undefined`, // not the promise: page.evaluate would wait for it
  );
  await page.evaluate(watchEvent('click'));
  await page.getByRole('button', { name: 'Apply' }).click({ timeout: 60_000 });
  const clicked = await eventTime(page);
  const drawn = await page.evaluate<number>('window.benchRangeDrawn');
  return drawn - clicked;
}

/**
 * What the tab's renderer holds (resident, bytes) as a marketer leaves it in the background: before, 10 s after its
 * engine has started (a reload of kept answers starts it once they are drawn); after five minutes hidden (its DuckDB
 * workers ended and the module let go, src/workers/hiddenTab.ts), 15 s after its last query worker ended; and back in
 * view, 10 s after two date changes; the page's array buffers at the same moments. The page's garbage is collected once
 * its workers have ended. The first change comes at once, as a user who returns and picks a range before the engine has
 * started again: its time (Apply → every widget drawn) against the next one's, with the engine ready, is what the
 * return costs. Their ranges span seven days each and are none of the dashboards' or the round's others (an answer the
 * page holds comes without a query). The five minutes pass on Playwright's clock, installed only now: the round's
 * timings before are the page's own clock's. The page stays on that clock, whose `performance` keeps no entries: read
 * last.
 */
export async function hiddenTabResident(page: Page, browserPid: number | undefined, widgets: number) {
  // The page's array buffers (V8's backing stores, not the workers'): where it holds the datasets' files.
  const cdp = await page.context().newCDPSession(page);
  const arrayBuffers = async () =>
    ((await cdp.send('Runtime.getHeapUsage')) as { backingStorageSize?: number }).backingStorageSize ?? NaN;
  const queryWorkers = () => page.workers().filter((worker) => /\/duckdb\.[0-9a-f]+\.js$/.test(worker.url()));
  // A reload of kept answers starts its engine once they are drawn and the page is idle.
  await until(() => queryWorkers().length > 0, 'the engine to start');
  await sleep(10_000);
  const before = tabResidentBytes(browserPid);
  const buffersBefore = await arrayBuffers();
  await page.clock.install();
  await showTab(page, 'hidden');
  await page.clock.fastForward(SHED_HIDDEN_MS + 1_000);
  // An engine still busy then (loading a dataset) is tried again a minute later.
  await until(async () => {
    if (queryWorkers().length === 0) return true;
    await page.clock.fastForward(60_000);
    return false;
  }, 'the hidden tab to end its DuckDB workers');
  // What the shed let go of is freed at the page's next garbage collection, which a quiet hidden tab may not run for
  // a while: collected at once, every round reads the same state, and the return pays for DuckDB's code compiled
  // again (bench/README.md, "What decides the return's cost").
  await cdp.send('HeapProfiler.collectGarbage');
  // The renderer gives a worker's memory back over seconds after it ends.
  await sleep(15_000);
  const hidden = tabResidentBytes(browserPid);
  const buffersHidden = await arrayBuffers();
  await showTab(page, 'visible');
  const firstChangeMs = await timedDateChange(page, 'Last 7 days', widgets);
  const nextChangeMs = await timedDateChange(page, 'Last week', widgets);
  await sleep(10_000);
  const back = tabResidentBytes(browserPid);
  const buffers = { before: buffersBefore, hidden: buffersHidden, back: await arrayBuffers() };
  await cdp.detach();
  return { before, hidden, back, buffers, firstChangeMs, nextChangeMs };
}
