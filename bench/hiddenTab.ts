import { type Page } from '@playwright/test';
import { SHED_HIDDEN_MS } from '../src/workers/hiddenTab';
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
 * What the tab's renderer holds (resident, bytes) as a marketer leaves it in the background: before, 10 s after its
 * engine has started (a reload of kept answers starts it once they are drawn); after five minutes hidden (its DuckDB
 * workers ended and the module let go, src/workers/hiddenTab.ts), 15 s after its last query worker ended; and 10 s
 * after its engine started again once back in view (a worker opening DuckDB and loading what the last ones held).
 * The five minutes pass on Playwright's clock, installed only now: the round's timings before are the page's own
 * clock's. The page stays on that clock, whose `performance` keeps no entries: read last.
 */
export async function hiddenTabResident(page: Page, browserPid: number | undefined) {
  const queryWorkers = () => page.workers().filter((worker) => /\/duckdb\.[0-9a-f]+\.js$/.test(worker.url()));
  // A reload of kept answers starts its engine once they are drawn and the page is idle.
  await until(() => queryWorkers().length > 0, 'the engine to start');
  await sleep(10_000);
  const before = tabResidentBytes(browserPid);
  await page.clock.install();
  await showTab(page, 'hidden');
  await page.clock.fastForward(SHED_HIDDEN_MS + 1_000);
  // An engine still busy then (loading a dataset) is tried again a minute later.
  await until(async () => {
    if (queryWorkers().length === 0) return true;
    await page.clock.fastForward(60_000);
    return false;
  }, 'the hidden tab to end its DuckDB workers');
  // The renderer gives a worker's memory back over seconds after it ends.
  await sleep(15_000);
  const hidden = tabResidentBytes(browserPid);
  await showTab(page, 'visible');
  await until(() => queryWorkers().length > 0, 'the engine back in view to start again');
  await sleep(10_000);
  return { before, hidden, back: tabResidentBytes(browserPid) };
}
